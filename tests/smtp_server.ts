/**
 * A small SMTP server on a loopback port, for tests: it speaks just enough of RFC 5321 (EHLO,
 * MAIL, RCPT, DATA, RSET, NOOP, QUIT; no STARTTLS, no AUTH) to take a message from a client,
 * and keeps each message it accepts. `refuse` makes it answer every DATA with 554, as a server
 * that rejects the message would.
 */
export function smtpServer(options: { refuse?: boolean } = {}) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  type Message = { to: string[]; data: string };
  const messages: Message[] = [];
  const inbox: Message[] = [];
  const waiting: ((message: Message) => void)[] = [];
  const sessions: Promise<void>[] = [];
  const accept = async () => {
    for await (const conn of listener) sessions.push(session(conn).catch(() => {}));
  };
  const session = async (conn: Deno.Conn) => {
    const encoder = new TextEncoder();
    const say = (line: string) => conn.write(encoder.encode(line + "\r\n"));
    let to: string[] = [];
    let data: string[] | null = null;
    await say("220 127.0.0.1 ESMTP test");
    for await (const line of lines(conn)) {
      if (data) {
        if (line !== ".") {
          data.push(line.startsWith("..") ? line.slice(1) : line); // RFC 5321 §4.5.2
          continue;
        }
        const message = { to, data: data.join("\r\n") };
        data = null;
        to = [];
        if (options.refuse) {
          await say("554 5.7.1 Message rejected");
          continue;
        }
        messages.push(message);
        const waiter = waiting.shift();
        if (waiter) waiter(message);
        else inbox.push(message);
        await say("250 2.0.0 Queued");
        continue;
      }
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO") await say("250-127.0.0.1\r\n250-8BITMIME\r\n250 SMTPUTF8");
      else if (verb === "HELO" || verb === "MAIL" || verb === "NOOP") await say("250 OK");
      else if (verb === "RSET") (to = [], await say("250 OK"));
      else if (verb === "RCPT") (to.push(/<([^>]*)>/.exec(line)?.[1] ?? ""), await say("250 OK"));
      else if (verb === "DATA") (data = [], await say("354 End data with <CR><LF>.<CR><LF>"));
      else if (verb === "QUIT") break;
      else await say("502 Command not implemented");
    }
    await say("221 Bye").catch(() => 0);
    try {
      conn.close();
    } catch {
      // Already closed by the client.
    }
  };
  const running = accept();
  return {
    url: `smtp://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    messages,
    /** The next message accepted (or the first one, if it came already). */
    nextMessage(): Promise<Message> {
      const first = inbox.shift();
      if (first) return Promise.resolve(first);
      return new Promise((resolve) => waiting.push(resolve));
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      await running.catch(() => {});
      await Promise.all(sessions);
    },
  };
}

/** The CRLF-ended lines a connection sends, until it closes. */
async function* lines(conn: Deno.Conn): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of conn.readable) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf("\r\n")) >= 0) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
    }
  }
}

/** A message's text body, quoted-printable soft breaks and escapes undone. */
export function messageText(data: string): string {
  const body = data.slice(data.indexOf("\r\n\r\n") + 4);
  if (!/content-transfer-encoding: quoted-printable/i.test(data)) return body;
  return body.replace(/=\r\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
  );
}
