// PLACEHOLDER until the chat work lands: the chat page is replaced by the chat feature.
export function ChatPage() {
  return <main className="p-4">Chat is not available yet.</main>;
}
