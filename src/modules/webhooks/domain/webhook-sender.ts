export interface SendInput {
  url: string;
  /** `whsec_…` */
  secret: string;
  /**
   * The secrets before the last rotations while they still sign, newest first (CONTRACT §9: 24 h after a
   * rotation; §21: a second rotation within 24 h keeps the one before the first until 24 h after it):
   * their signatures follow the new one's in `webhook-signature`, space-separated (up to three in all).
   */
  previousSecrets?: readonly string[];
  /** `webhook-id`: the same on every attempt of one event. */
  msgId: string;
  timestamp: Date;
  /** Sent byte for byte; the signature covers exactly this string. */
  body: string;
}

export interface SendResult {
  ok: boolean;
  status?: number;
  /**
   * Short and free of secrets: `invalid_url`, `forbidden_address`, `dns_failure`, `signing_failed`,
   * `timeout`, `http_<status>`, or a socket/TLS error code such as `ECONNREFUSED`.
   */
  error?: string;
  /**
   * The vetted address the request went to (the socket is pinned to it), once one was chosen: whether an
   * answer may be shown later depends on it (a private address is only shown while private networks are
   * allowed).
   */
  address?: string;
  durationMs: number;
}

/**
 * Port: delivers one signed webhook (Standard Webhooks) to a receiver and says how it went. It never
 * throws: every failure is a result, so that each attempt can be recorded (CONTRACT §9).
 */
export abstract class WebhookSender {
  abstract send(input: SendInput): Promise<SendResult>;
}
