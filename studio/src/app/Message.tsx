/** A full-screen message: loading, disabled embed, unknown embed, service unreachable. */
export function Message({ title, text, busy }: { title: string; text: string; busy?: boolean }) {
  return (
    <main class="message" aria-busy={busy ? 'true' : 'false'}>
      <h1>{title}</h1>
      <p role={busy ? 'status' : 'alert'}>{text}</p>
    </main>
  );
}
