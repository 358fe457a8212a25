import { randomUUID } from 'node:crypto';
import { totpCodeAt } from '../../src/modules/auth/organizations/domain/totp';
import { PageDriver, postAndFollow } from './consent-fixtures';
import type { ManualClock } from './production-fixtures';
import type { TestApp } from './test-app';

export const DEV_PASSWORD = 'udvikler hest batteri 42';

export interface Developer {
  email: string;
  secret: string;
  driver: PageDriver;
}

/** Sign-up over HTTP: Create account, read the secret off the enrolment page, Confirm with its code. */
export async function aDeveloper(app: TestApp, clock: ManualClock, email = `dev-${randomUUID()}@example.dk`): Promise<Developer> {
  const driver = new PageDriver(app);
  await driver.get('/developers/signup');
  // CONTRACT §18: Create account answers 303 to the enrolment page, which shows the secret in groups of four
  const enrol = await postAndFollow(driver, '/developers/signup', { email, password: DEV_PASSWORD });
  if (enrol.postStatus !== 303 || enrol.status !== 200) throw new Error(`sign-up answered ${enrol.postStatus}, then ${enrol.status}`);
  const secret = (/id="totp-secret">([A-Z2-7 ]+)</.exec(enrol.text)?.[1] as string).replace(/ /g, '');
  clock.advance(30_000);
  const confirmed = await driver.post('/developers/signup/confirm', { code: totpCodeAt(secret, clock.nowMs()) });
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
