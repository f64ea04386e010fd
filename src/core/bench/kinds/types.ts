import type { z } from 'zod';
import type { ChatMessage } from '../../prompt/types';
import type { Frame, FramingKind } from '../framing';

/** What one frame of a stream says, in endpoint-neutral terms. */
export interface ChunkInfo {
  /** Generated text (visible or reasoning); empty or absent means this frame is not a token. */
  text?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** The endpoint reported an error inside the stream. */
  error?: string;
  finish?: string;
  /** The stream says it is complete ([DONE], message_stop, done:true). */
  done?: boolean;
  /** The frame could not be read (bad JSON): the stream cannot be trusted. */
  malformed?: string;
}

export interface RequestShape {
  model: string;
  messages: ChatMessage[];
  maxTokens: number;
}

/** One endpoint kind's wire format: how to ask, and how to read the answer. */
export interface WireFormat {
  framing: FramingKind;
  /** Appended to the endpoint's base URL. */
  path: string;
  headers(apiKey: string | undefined): Record<string, string>;
  body(request: RequestShape): unknown;
  interpret(frame: Frame): ChunkInfo;
}

/** Parses a frame's JSON data against a permissive schema; non-matching shapes are ignored, bad JSON is not. */
export function readFrame<T>(frame: Frame, schema: z.ZodType<T>): { value?: T; malformed?: string } {
  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch {
    // Whole: the client redacts secrets in it before clipping (see endpointText).
    return { malformed: `not JSON: ${frame.data}` };
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? { value: parsed.data } : {};
}

/**
 * An error object's message, whatever shape the endpoint chose (`{message}`, `{error:{message}}`, a
 * string); whole, for the client to redact and then clip.
 */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; type?: unknown; code?: unknown; error?: unknown };
    if (e.error !== undefined && e.error !== error) return errorText(e.error);
    const label = [e.type, e.code].filter((x) => typeof x === 'string' || typeof x === 'number').join('/');
    if (typeof e.message === 'string') return label ? `${e.message} (${label})` : e.message;
    return JSON.stringify(error);
  }
  return String(error);
}

export function bearer(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}
