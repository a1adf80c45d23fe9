// A TraceApi call to a bench's serve mode over HTTP, as the renderer makes it (token 'bench'):
// the answer's text (its size is a figure) and its JSON.
export async function call(port, method, args) {
  const response = await fetch(`http://127.0.0.1:${port}/api/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-trace-token': 'bench' },
    body: JSON.stringify({ method, args }),
  });
  const text = await response.text();
  return { text, json: text ? JSON.parse(text) : null };
}
