const UTF8 = new TextDecoder('utf-8');

/**
 * A prompt file's text from its bytes, the same on every surface: UTF-8 with U+FFFD for invalid
 * bytes, and a leading byte-order mark dropped. The BOM marks the file's encoding, not its content:
 * VS Code strips it when it opens the file (so the editor never counts it), and an application that
 * reads the prompt to send it does not send it either. A U+FEFF anywhere else, or a second one at
 * the start, is text and is counted. (TextDecoder drops exactly one leading BOM by default.) No
 * bytes (`undefined`) is empty text.
 */
export function decodeFileText(bytes: Uint8Array | undefined): string {
  return UTF8.decode(bytes);
}
