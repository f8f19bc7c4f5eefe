/** One pending timer at most: setting it again replaces the one pending. */
export class OneShot {
  private timer: ReturnType<typeof setTimeout> | null = null;

  set(ms: number, run: () => void): void {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = null;
      run();
    }, ms);
  }

  clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
