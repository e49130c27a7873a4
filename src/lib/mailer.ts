import { createTransport } from "nodemailer";
import type { MailConfig } from "../config/config.ts";

/** One plain-text email. */
export type MailMessage = { to: string; subject: string; text: string };

/** Sends email; `send` rejects when the server refuses it or cannot be reached. */
export type Mailer = { send(message: MailMessage): Promise<void> };

/**
 * A mailer over the configured SMTP server (nodemailer). One connection a message: invitations
 * are rare, and a pool would hold a connection open for nothing. The timeouts are short
 * because the person who invited waits for the answer; nodemailer's defaults are minutes.
 */
export function createMailer(config: MailConfig): Mailer {
  const transport = createTransport({
    url: config.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  }, { from: config.from });
  return {
    async send(message) {
      await transport.sendMail(message);
    },
  };
}
