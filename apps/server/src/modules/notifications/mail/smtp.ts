import nodemailer from 'nodemailer';
import type { SettingsStore } from '../../settings/store.ts';

/**
 * The SMTP server of Messages › Email, read from the settings (`EMAIL_*`), and the one function
 * that hands a mail to it. EMAIL_USE_SSL is TLS from the first byte (port 465), EMAIL_USE_TLS
 * requires STARTTLS (port 587); neither sends in clear unless the server offers STARTTLS, which is
 * then used. Nothing but the outbox (outbox.ts) and the test button (mailRoutes.ts) calls it.
 */
export interface SmtpConfig {
  host: string;
  port: number;
  user: string;
  password: string;
  useSsl: boolean;
  useTls: boolean;
  from: string;
  subjectPrefix: string;
  suffix: string;
}

export interface Mail {
  to: string;
  subject: string;
  html: string;
  /** A file sent with the mail (an account backup). */
  attachment?: { filename: string; content: Buffer };
}

/** The stored settings, with `over` (a test's unsaved, already checked form values) on top. */
export async function loadSmtpConfig(settings: SettingsStore, over: Record<string, unknown> = {}): Promise<SmtpConfig> {
  const v = async (name: string) => (name in over ? over[name] : await settings.valueOf(name));
  const password =
    typeof over.EMAIL_HOST_PASSWORD === 'string' && over.EMAIL_HOST_PASSWORD
      ? over.EMAIL_HOST_PASSWORD
      : await settings.secret('EMAIL_HOST_PASSWORD');
  const user = String((await v('EMAIL_HOST_USER')) ?? '');
  return {
    host: String((await v('EMAIL_HOST')) ?? ''),
    port: Number(await v('EMAIL_PORT')) || 25,
    user,
    password,
    useSsl: Boolean(await v('EMAIL_USE_SSL')),
    useTls: Boolean(await v('EMAIL_USE_TLS')),
    from: String((await v('EMAIL_FROM')) ?? '') || user,
    subjectPrefix: String((await v('EMAIL_SUBJECT_PREFIX')) ?? ''),
    suffix: String((await v('EMAIL_SUFFIX')) ?? ''),
  };
}

const SECOND = 1000;

/** Sends one mail now; throws the server's refusal or the connection's error. */
export async function sendMail(cfg: SmtpConfig, mail: Mail): Promise<void> {
  const transport = nodemailer.createTransport({
    host: cfg.host,
    port: cfg.port,
    secure: cfg.useSsl,
    requireTLS: cfg.useTls && !cfg.useSsl,
    auth: cfg.user ? { user: cfg.user, pass: cfg.password } : undefined,
    connectionTimeout: 10 * SECOND,
    greetingTimeout: 10 * SECOND,
    socketTimeout: 30 * SECOND,
  });
  try {
    await transport.sendMail({
      from: cfg.from || `gatehouse@${cfg.host}`,
      to: mail.to,
      subject:
        cfg.subjectPrefix && !/\s$/.test(cfg.subjectPrefix)
          ? `${cfg.subjectPrefix} ${mail.subject}`
          : cfg.subjectPrefix + mail.subject,
      html: cfg.suffix ? `${mail.html}<p>${escapeSuffix(cfg.suffix)}</p>` : mail.html,
      ...(mail.attachment ? { attachments: [mail.attachment] } : {}),
    });
  } finally {
    transport.close();
  }
}

function escapeSuffix(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
