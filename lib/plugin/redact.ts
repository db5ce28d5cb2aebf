/** Remembers secret values and replaces them wherever they would be written. */
export class Redactor {
  private readonly secrets = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would blank out ordinary words; they are not plausible secrets.
    if (value && value.trim().length >= 4) this.secrets.add(value.trim());
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join('<redacted>');
    return out;
  }
}
