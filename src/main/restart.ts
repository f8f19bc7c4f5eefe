import type { App } from 'electron';

/**
 * The exit status that asks the systemd user unit to start the app again (Restart=on-failure):
 * inside a unit, app.relaunch() would start a process that systemd kills with the old one.
 */
export const RESTART_EXIT_CODE = 75;
/** Set by resources/linux/wallboard.service. */
export const SUPERVISED_ENV = 'WALLBOARD_SUPERVISED';

export interface RestartOptions {
  app: Pick<App, 'relaunch' | 'exit'>;
  /** This process's argv (Electron's, so argv[0] is the executable). */
  argv: string[];
  env: Record<string, string | undefined>;
}

/** Ends this process and starts the app again, with `extraArgs` added to its command line. */
export function restartApp(options: RestartOptions, extraArgs: string[] = []): void {
  const { app, argv, env } = options;
  if (env[SUPERVISED_ENV] === 'systemd') {
    app.exit(RESTART_EXIT_CODE);
    return;
  }
  const args = argv.slice(1);
  for (const arg of extraArgs) if (!args.includes(arg)) args.push(arg);
  app.relaunch({ args });
  app.exit(0);
}
