import type { AttrValue } from '../../src-main/core/model/row';

interface Message {
  role: string;
  content: AttrValue;
  tool_calls?: AttrValue;
}

/** A prompt as chat messages (role, content parts, tool calls, inline images), or plain text. */
export function ChatMessages({ value }: { value: AttrValue }) {
  if (typeof value === 'string')
    return (
      <pre className="text-block" data-testid="sample-prompt">
        {value}
      </pre>
    );
  if (!Array.isArray(value))
    return (
      <pre className="text-block" data-testid="sample-prompt">
        {JSON.stringify(value)}
      </pre>
    );
  return (
    <div className="chat" data-testid="sample-prompt">
      {(value as unknown as Message[]).map((m, i) => (
        <div key={i} className={`chat-message role-${String(m?.role ?? 'unknown')}`}>
          <div className="chat-role">{String(m?.role ?? '?')}</div>
          <Content content={m?.content ?? null} />
          {m?.tool_calls !== undefined && m.tool_calls !== null && (
            <pre className="tool-calls">{JSON.stringify(m.tool_calls, null, 2)}</pre>
          )}
        </div>
      ))}
    </div>
  );
}

function Content({ content }: { content: AttrValue }) {
  if (typeof content === 'string') return <div className="chat-content">{content}</div>;
  if (!Array.isArray(content)) return <div className="chat-content">{JSON.stringify(content)}</div>;
  return (
    <div className="chat-content">
      {content.map((part, i) => {
        const p = (part ?? {}) as Record<string, AttrValue>;
        const url = imageUrl(p);
        if (url) return <img key={i} className="chat-image" src={url} alt="image in the prompt" />;
        return <div key={i}>{typeof p.text === 'string' ? p.text : JSON.stringify(part)}</div>;
      })}
    </div>
  );
}

/** Only data: URLs are shown: the CSP allows no remote images, and the app is offline. */
function imageUrl(part: Record<string, AttrValue>): string | null {
  const raw = part.image_url ?? part.image ?? null;
  const url =
    typeof raw === 'string'
      ? raw
      : raw && typeof raw === 'object' && !Array.isArray(raw)
        ? raw.url
        : null;
  return typeof url === 'string' && url.startsWith('data:image/') ? url : null;
}
