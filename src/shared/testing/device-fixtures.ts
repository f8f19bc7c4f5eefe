/** A heartbeat as a screen of the tests sends it, showing `showing`. */
export function sampleHeartbeat(showing: string) {
  return {
    app_version: '1.4.0',
    os: 'Debian 13',
    cpu_load: 12.5,
    memory: { total_bytes: 8_000_000_000, used_bytes: 2_000_000_000 },
    uptime_seconds: 3600,
    display: { width: 1920, height: 1080 },
    cache: { bytes: 1024, items: 3 },
    showing,
  };
}
