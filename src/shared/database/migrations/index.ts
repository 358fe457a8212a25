import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { OneMandateInForce1763900000000 } from './1763900000000-one-mandate-in-force';
import { WebhookDeliveries1764000000000 } from './1764000000000-webhook-deliveries';
import { OwnerConsent1765100000000 } from './1765100000000-owner-consent';
import { SecondFactorLockout1765200000000 } from './1765200000000-second-factor-lockout';
import { WebhookDeliveriesByEndpoint1765300000000 } from './1765300000000-webhook-deliveries-by-endpoint';
import { EventsFeedCommitOrder1765423000000 } from './1765423000000-events-feed-commit-order';
import { WebhookPaceLifecycle1765423700000 } from './1765423700000-webhook-pace-lifecycle';
import { SecretsKeyFingerprints1766100000000 } from './1766100000000-secrets-key-fingerprints';
import { WebSessions1766271137000 } from './1766271137000-web-sessions';
import { SignInPerAddress1766271138000 } from './1766271138000-sign-in-per-address';
import { Developers1766290000000 } from './1766290000000-developers';
import { AppPublisher1766450000000 } from './1766450000000-app-publisher';
import { WebhookEndpointBounds1766400000000 } from './1766400000000-webhook-endpoint-bounds';
import { DeveloperAccountsProof1766420000000 } from './1766420000000-developer-accounts-proof';
import { VouchersComplete1766430000000 } from './1766430000000-vouchers-complete';
import { GrantEvents1766440000000 } from './1766440000000-grant-events';
import { WebhookWorkNotify1766650000000 } from './1766650000000-webhook-work-notify';
import { WebhookTools1766460000000 } from './1766460000000-webhook-tools';
import { RequestLogFilters1766610000000 } from './1766610000000-request-log-filters';
import { RequestLog1766470000000 } from './1766470000000-request-log';
import { SelfServiceEndpoints1766480000000 } from './1766480000000-self-service-endpoints';
import { DemoCompany1766500000000 } from './1766500000000-demo-company';
import { SignupPasswordAtLink1766630000000 } from './1766630000000-signup-password-at-link';
import { AttachmentStorage1766620000000 } from './1766620000000-attachment-storage';
import { CorrectionsRegisteredBy1766640000000 } from './1766640000000-corrections-registered-by';
import { PublisherApproved1766670000000 } from './1766670000000-publisher-approved';
import { OutboxNotifyNotForPartnerWrites1766680000000 } from './1766680000000-outbox-notify-not-for-partner-writes';
import { RequestLogAscendingIndexes1766690000000 } from './1766690000000-request-log-ascending-indexes';
import { WebhookOlderSecret1766660000000 } from './1766660000000-webhook-older-secret';
import { PreviousCredentials1766660000001 } from './1766660000001-previous-credentials';

/** Every migration, in order. A new migration is appended here (no glob: the build stays explicit). */
export const MIGRATIONS = [
  InitialSchema1763800000000,
  OneMandateInForce1763900000000,
  WebhookDeliveries1764000000000,
  OwnerConsent1765100000000,
  SecondFactorLockout1765200000000,
  WebhookDeliveriesByEndpoint1765300000000,
  EventsFeedCommitOrder1765423000000,
  WebhookPaceLifecycle1765423700000,
  SecretsKeyFingerprints1766100000000,
  WebSessions1766271137000,
  SignInPerAddress1766271138000,
  Developers1766290000000,
  AppPublisher1766450000000,
  WebhookEndpointBounds1766400000000,
  DeveloperAccountsProof1766420000000,
  VouchersComplete1766430000000,
  GrantEvents1766440000000,
  WebhookTools1766460000000,
  RequestLog1766470000000,
  SelfServiceEndpoints1766480000000,
  DemoCompany1766500000000,
  RequestLogFilters1766610000000,
  AttachmentStorage1766620000000,
  SignupPasswordAtLink1766630000000,
  CorrectionsRegisteredBy1766640000000,
  WebhookWorkNotify1766650000000,
  WebhookOlderSecret1766660000000,
  PreviousCredentials1766660000001,
  PublisherApproved1766670000000,
  OutboxNotifyNotForPartnerWrites1766680000000,
  RequestLogAscendingIndexes1766690000000,
];
