/** What stands for a secret's value wherever a run's words leave it. */
export const MASK = '***';

/**
 * The value's bytes as base64 wherever it starts in the encoded data (at any of the three byte
 * offsets of a group): the characters that come of its bytes alone, up to its last whole group
 * (the value in the middle of the data) and up to its end (the value ending it, unpadded). An
 * HTTP basic credential (`user:password`) has the password at some offset.
 */
function base64Forms(value: string): string[] {
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const bytes = Buffer.concat([Buffer.alloc(offset), Buffer.from(value, 'utf8')]);
    const skip = offset > 0 ? 4 : 0;
    const whole = bytes
      .subarray(0, bytes.length - (bytes.length % 3))
      .toString('base64')
      .slice(skip);
    const ending = bytes.toString('base64').replace(/=+$/, '').slice(skip);
    for (const form of [whole, ending]) {
      // Shorter runs of base64 are found in any text by chance.
      if (form.length >= 4) forms.push(form, form.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return forms;
}

/**
 * The forms a value may take in a run's words: as it is, as it sits inside a JSON string (a
 * logged object), URL-encoded (by the script, or as a URL's parser writes it in a path or a
 * query: the http library's errors name the parsed URL), and base64 (a credential built by hand).
 */
function formsOf(value: string): string[] {
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
    encodeURI(value),
    new URL(`http://host/${value}`).pathname.slice(1),
    new URL(`http://host/?${value}`).search.slice(1),
    ...base64Forms(value),
  ];
}

/**
 * Replaces a run's secret values with `***` in what the run says: its log lines, its error, its
 * result, the arguments of its notifications and the errors of its library calls. It holds the
 * values for one run only. Masking keeps an honest script's secrets out of logs and answers; it
 * cannot stop a script bent on leaking them (it holds them, and can spell them backwards).
 */
export class SecretMask {
  private readonly forms: string[];

  constructor(values: Iterable<string>) {
    const forms = new Set<string>();
    for (const value of values) for (const form of formsOf(value)) if (form.length > 0) forms.add(form);
    // Longest first, so that a longer form is replaced before a shorter one inside it.
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** True when the run has no secrets: nothing to mask. */
  get empty(): boolean {
    return this.forms.length === 0;
  }

  text(text: string): string {
    let masked = text;
    for (const form of this.forms) masked = masked.split(form).join(MASK);
    return masked;
  }

  /**
   * A log line the script's host may have cut at `limit` characters: a value cut in two leaves
   * its beginning at the end of the line, which is masked too.
   */
  line(line: string, limit: number): string {
    const masked = this.text(line);
    if (line.length < limit) return masked;
    let cut = 0;
    for (const form of this.forms) {
      // The longest end of the line that begins the form: tried only where its first character is.
      let at = masked.indexOf(form[0] ?? '', Math.max(0, masked.length - form.length + 1));
      while (at !== -1 && masked.length - at > cut) {
        if (form.startsWith(masked.slice(at))) {
          cut = masked.length - at;
          break;
        }
        at = masked.indexOf(form[0] ?? '', at + 1);
      }
    }
    return cut > 0 ? masked.slice(0, -cut) + MASK : masked;
  }

  /** A JSON value with every string in it (keys too) masked. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item: unknown) => this.json(item));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [this.text(key), this.json(item)]),
      );
    }
    return value;
  }

  /** An error with its message and stack masked, for the service's own log. */
  error(error: unknown): unknown {
    if (this.empty || !(error instanceof Error)) return error;
    const masked = new Error(this.text(error.message), {
      cause: error.cause instanceof Error ? this.error(error.cause) : undefined,
    });
    masked.name = error.name;
    masked.stack = error.stack === undefined ? undefined : this.text(error.stack);
    return masked;
  }
}
