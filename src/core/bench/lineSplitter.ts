/** A line grew past the limit without a line end: the body is not a usable stream. */
export class LineTooLongError extends Error {}

/** 1 MiB of characters: far above any real event, far below what would exhaust memory. */
export const DEFAULT_MAX_LINE_CHARS = 1 << 20;

/**
 * Splits a byte stream into lines ended by LF, CRLF or CR (as the SSE spec allows), decoding UTF-8
 * with a streaming TextDecoder so a character split across network reads is rebuilt, not mangled.
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private partial = '';
  /** A chunk ended in CR: a LF at the start of the next chunk belongs to the same line end. */
  private pendingCr = false;

  constructor(private readonly maxLineChars = DEFAULT_MAX_LINE_CHARS) {}

  push(bytes: Uint8Array): string[] {
    return this.split(this.decoder.decode(bytes, { stream: true }));
  }

  /** End of body: the last line counts even without a line end. */
  end(): string[] {
    const lines = this.split(this.decoder.decode());
    if (this.partial.length > 0) lines.push(this.partial);
    this.partial = '';
    return lines;
  }

  private split(text: string): string[] {
    const lines: string[] = [];
    if (text.length === 0) return lines;
    let start = 0;
    if (this.pendingCr && text.charCodeAt(0) === 10) start = 1;
    this.pendingCr = false;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.emit(lines, this.partial + text.slice(start, i));
      this.partial = '';
      if (c === 13) {
        if (i + 1 === text.length) this.pendingCr = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.partial += text.slice(start);
    this.check(this.partial.length);
    return lines;
  }

  private emit(lines: string[], line: string): void {
    this.check(line.length);
    lines.push(line);
  }

  private check(length: number): void {
    if (length > this.maxLineChars) {
      throw new LineTooLongError(
        `a line of the stream exceeded ${this.maxLineChars.toLocaleString('en-US')} characters without a line end`,
      );
    }
  }
}
