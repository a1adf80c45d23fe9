import { jsonText } from '../../src-main/core/model/json-text';
import type { AttrValue } from '../../src-main/core/model/row';

export type ChatPart =
  | { kind: 'text'; text: string }
  /** src is a data: URL the CSP allows; never a remote URL (the app is offline) */
  | { kind: 'image'; src: string }
  /** an image we cannot show (remote URL, path): say where it was */
  | { kind: 'image-ref'; ref: string }
  | { kind: 'other'; json: string };

export interface ToolCall {
  id: string | null;
  name: string;
  /** arguments as pretty JSON when they parse, else the raw string */
  args: string;
}

export interface ChatMessage {
  role: string;
  parts: ChatPart[];
  toolCalls: ToolCall[];
  /** tool results name the call they answer */
  toolCallId: string | null;
  name: string | null;
}

export type ParsedPrompt =
  | { kind: 'text'; text: string }
  | { kind: 'chat'; messages: ChatMessage[] }
  | { kind: 'empty' }
  | { kind: 'other'; json: string };

/** A prompt as slime stores it: a string, or a list of OpenAI-style chat messages. */
export function parsePrompt(prompt: AttrValue | undefined): ParsedPrompt {
  if (prompt === null || prompt === undefined || prompt === '') return { kind: 'empty' };
  if (typeof prompt === 'string') return { kind: 'text', text: prompt };
  if (Array.isArray(prompt) && prompt.every(isMessage)) {
    return { kind: 'chat', messages: prompt.map((m) => parseMessage(m as Dict)) };
  }
  return { kind: 'other', json: jsonText(prompt, 2) };
}

type Dict = { [key: string]: AttrValue };

function isDict(value: AttrValue | undefined): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMessage(value: AttrValue): boolean {
  return isDict(value) && ('role' in value || 'content' in value);
}

function parseMessage(m: Dict): ChatMessage {
  return {
    role: typeof m.role === 'string' ? m.role : 'unknown',
    parts: parseContent(m.content),
    toolCalls: Array.isArray(m.tool_calls) ? m.tool_calls.map(parseToolCall) : [],
    toolCallId: typeof m.tool_call_id === 'string' ? m.tool_call_id : null,
    name: typeof m.name === 'string' ? m.name : null,
  };
}

/** content: a string, a list of parts ({type: text|image_url|image, ...}), or missing. */
export function parseContent(content: AttrValue | undefined): ChatPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  const parts = Array.isArray(content) ? content : [content];
  return parts.map((part): ChatPart => {
    if (typeof part === 'string') return { kind: 'text', text: part };
    if (!isDict(part)) return { kind: 'other', json: jsonText(part) };
    if (typeof part.text === 'string' && (part.type === 'text' || part.type === undefined))
      return { kind: 'text', text: part.text };
    const type = typeof part.type === 'string' ? part.type : '';
    if (type === 'image_url' || type === 'image' || 'image_url' in part || 'image' in part) {
      const raw = part.image_url ?? part.image ?? part.url ?? part.data ?? null;
      const ref = isDict(raw) ? (raw.url ?? raw.data ?? null) : raw;
      if (typeof ref === 'string') {
        const src = imageSource(ref, mimeOf(part));
        return src ? { kind: 'image', src } : { kind: 'image-ref', ref: shorten(ref) };
      }
    }
    return { kind: 'other', json: jsonText(part) };
  });
}

function mimeOf(part: Dict): string | null {
  const mime = part.mime_type ?? part.media_type ?? null;
  return typeof mime === 'string' && mime.startsWith('image/') ? mime : null;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A displayable image source: a data:image URL as is, or bare base64 whose first bytes are a
 * known image signature (PNG, JPEG, GIF, WebP) turned into a data URL. Anything else: null.
 */
export function imageSource(ref: string, mime: string | null = null): string | null {
  const trimmed = ref.trim();
  if (/^data:image\/[a-z0-9.+-]+;base64,/i.test(trimmed)) return trimmed;
  const compact = trimmed.replace(/\s+/g, '');
  if (compact.length < 16 || compact.length % 4 !== 0 || !BASE64.test(compact)) return null;
  const sniffed = sniffImage(compact);
  const type = sniffed ?? mime;
  return type ? `data:${type};base64,${compact}` : null;
}

/** Image type from the base64 of the first bytes: signatures, no decoding of the rest. */
function sniffImage(base64: string): string | null {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR') && base64.slice(12, 16) === 'RUJQ') return 'image/webp';
  return null;
}

function shorten(ref: string): string {
  return ref.length > 120 ? `${ref.slice(0, 117)}…` : ref;
}

function parseToolCall(call: AttrValue): ToolCall {
  if (!isDict(call)) return { id: null, name: '?', args: jsonText(call) };
  const fn = isDict(call.function) ? call.function : call;
  const name = typeof fn.name === 'string' ? fn.name : '?';
  const raw = fn.arguments ?? fn.args ?? fn.parameters ?? null;
  let args: string;
  if (typeof raw === 'string') {
    try {
      args = jsonText(JSON.parse(raw) as unknown, 2);
    } catch {
      args = raw;
    }
  } else args = raw === null ? '' : jsonText(raw, 2);
  return { id: typeof call.id === 'string' ? call.id : null, name, args };
}
