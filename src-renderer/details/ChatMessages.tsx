import type { AttrValue } from '../../src-main/core/model/row';
import { parsePrompt, type ChatPart } from './chat-messages';

/** A prompt as chat messages (role, content parts, tool calls, inline images), or plain text. */
export function ChatMessages({ value }: { value: AttrValue | undefined }) {
  const prompt = parsePrompt(value);
  if (prompt.kind === 'empty')
    return (
      <div className="muted" data-testid="sample-prompt">
        (empty)
      </div>
    );
  if (prompt.kind !== 'chat')
    return (
      <pre className="text-block" data-testid="sample-prompt">
        {prompt.kind === 'text' ? prompt.text : prompt.json}
      </pre>
    );
  return (
    <div className="chat" data-testid="sample-prompt" data-messages={prompt.messages.length}>
      {prompt.messages.map((m, i) => (
        <div key={i} className={`chat-message role-${m.role}`} data-testid="chat-message">
          <div className="chat-role">
            {m.role}
            {m.name && <span className="muted"> · {m.name}</span>}
            {m.toolCallId && <span className="muted"> · answers {m.toolCallId}</span>}
          </div>
          {m.parts.map((part, k) => (
            <Part key={k} part={part} />
          ))}
          {m.toolCalls.map((call, k) => (
            <div key={`t${k}`} className="tool-call" data-testid="tool-call">
              <div className="tool-call-name">
                ƒ {call.name}
                {call.id && <span className="muted"> · {call.id}</span>}
              </div>
              {call.args && <pre className="tool-calls">{call.args}</pre>}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

function Part({ part }: { part: ChatPart }) {
  switch (part.kind) {
    case 'text':
      return <div className="chat-content">{part.text}</div>;
    case 'image':
      return <img className="chat-image" src={part.src} alt="image in the prompt" />;
    case 'image-ref':
      return (
        <div className="chat-content muted" title="Only images carried in the file are shown">
          [image: {part.ref}]
        </div>
      );
    default:
      return <pre className="tool-calls">{part.json}</pre>;
  }
}
