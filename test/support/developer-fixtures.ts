import { randomUUID } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { PageDriver } from './consent-fixtures';
import type { ManualClock } from './production-fixtures';
import { type SmtpInbox, signupLinkIn } from './smtp-inbox';
import { TEST_CONSOLE_KEY, type TestApp } from './test-app';

export const DEV_PASSWORD = 'udvikler hest batteri 42';

export interface Developer {
  email: string;
  secret: string;
  driver: PageDriver;
}

/**
 * A signed-in developer: made by the operator (`POST /console/v1/developers`), then signed in on the
 * page with a fresh code. The sign-up through the email's link is signUpByEmail's (a real SMTP server).
 */
export async function aDeveloper(app: TestApp, clock: ManualClock, email = `dev-${randomUUID()}@example.dk`): Promise<Developer> {
  const created = await app.console().post('/console/v1/developers').set('Authorization', `Bearer ${TEST_CONSOLE_KEY}`).send({ email, password: DEV_PASSWORD });
  if (created.status !== 201) throw new Error(`POST /console/v1/developers answered ${created.status}: ${created.text}`);
  const secret = created.body.totp_secret as string;
  const driver = new PageDriver(app);
  await driver.get('/developers/signin');
  clock.advance(30_000);
  const signedIn = await driver.post('/developers/signin', { email, password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) });
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  return { email, secret, driver };
}

/**
 * Sign-up as a stranger does it (issue 35): Create account with the email only, the link from the email
 * the SMTP server received, the secret off the enrolment page, Confirm with the password chosen there
 * (CONTRACT §20) and the code.
 */
export async function signUpByEmail(app: TestApp, clock: ManualClock, inbox: SmtpInbox, email = `dev-${randomUUID()}@example.dk`): Promise<Developer> {
  const driver = new PageDriver(app);
  await driver.get('/developers/signup');
  const before = inbox.to(email).length;
  // CONTRACT §18: Create account answers 303 to "Check your email"
  const sent = await driver.post('/developers/signup', { email });
  if (sent.status !== 303 || sent.headers.location !== '/developers/signup/sent') throw new Error(`sign-up answered ${sent.status} ${sent.headers.location}`);
  const link = signupLinkIn(await inbox.nth(email, before + 1));
  if (!link) throw new Error('the sign-up email holds no link');
  // the link sets the sign-up in the session and answers 303 to the enrolment page (the secret in groups of four)
  const opened = await driver.get(link);
  if (opened.status !== 303 || opened.headers.location !== '/developers/signup/confirm')
    throw new Error(`the link answered ${opened.status} ${opened.headers.location}`);
  const enrol = await driver.get('/developers/signup/confirm');
  if (enrol.status !== 200) throw new Error(`the enrolment page answered ${enrol.status}`);
  const secret = (/id="totp-secret">([A-Z2-7 ]+)</.exec(enrol.text)?.[1] as string).replace(/ /g, '');
  clock.advance(30_000);
  const confirmed = await driver.post('/developers/signup/confirm', { password: DEV_PASSWORD, code: totpCodeAt(secret, clock.nowMs()) });
  if (confirmed.status !== 303) throw new Error(`confirm answered ${confirmed.status}`);
  return { email, secret, driver };
}

/** Creates an app on the page; its id from the 303 Location. */
export async function anAppOnThePage(d: Developer, name = 'Bogføring Pro'): Promise<string> {
  await d.driver.get('/developers/apps/new');
  const res = await d.driver.post('/developers/apps', { name });
  if (res.status !== 303) throw new Error(`create app answered ${res.status}: ${res.text}`);
  return /\/developers\/apps\/([0-9a-f-]{36})$/.exec(res.headers.location as string)?.[1] as string;
}

/** The one-time token of a confirmation page (CONTRACT §18, §21: a confirmation form works once). */
export const confirmationOf = (html: string): string => /name="confirmation" value="([^"]+)"/.exec(html)?.[1] as string;
