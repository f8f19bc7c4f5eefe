// The functions that took the most time themselves in a CPU profile (CDP `Profiler.stop`), for
// bench/renderer's --profile.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** The `count` functions with the most self time, as "share  name (file:line:column)". */
export function topFunctions(profile: { nodes: ProfileNode[]; samples?: number[] }, count: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = frame.url.split('/').pop() ?? '';
    const key = `${frame.functionName || '(anonymous)'}${file ? ` (${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1})` : ''}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
  }
  const total = profile.samples?.length ?? 1;
  return [...hits.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, n]) => `  ${((n / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}
