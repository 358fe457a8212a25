import { Logger } from '@nestjs/common';
import { formatAmount, formatDate, formatDateTime, formatUtc } from './format';
import { catalogueGaps, chooseLanguage, defineCatalogue, firstSupportedTag, fromAcceptLanguage, translate } from './i18n';
import './messages';
// every page set's catalogue: a key missing in either language fails here
import '../../modules/auth/consent/views/messages';
import '../../modules/developers/views/messages';

describe('catalogues (CONTRACT §18: a key missing in either language fails a test)', () => {
  it('every registered key has a text in da and in en', () => {
    expect(catalogueGaps()).toEqual([]);
  });

  it('finds a key missing in Danish (the check can fail)', () => {
    defineCatalogue('spec-gap', { en: { only: 'Only English', both: 'x' }, da: { both: 'y' } } as never);
    expect(catalogueGaps()).toEqual([{ lang: 'da', key: 'spec-gap.only' }]);
    defineCatalogue('spec-gap', { en: { both: 'x' }, da: { both: 'y' } });
    expect(catalogueGaps()).toEqual([]);
  });

  it('falls back to English for a key missing at run time, and logs it once', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    defineCatalogue('spec-fallback', { en: { hello: 'Hello {name}' }, da: {} } as never);
    expect(translate('da', 'spec-fallback.hello', { name: 'Ejer' })).toBe('Hello Ejer');
    expect(translate('da', 'spec-fallback.hello', { name: 'Ejer' })).toBe('Hello Ejer');
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('names the accessible names of §18 in Danish', () => {
    expect(
      ['web.email', 'web.password', 'web.authenticatorCode', 'web.signIn', 'web.confirm', 'web.cancel', 'consent.allow', 'consent.deny', 'consent.revoke'].map(
        (k) => translate('da', k),
      ),
    ).toEqual(['E-mail', 'Adgangskode', 'Kode fra godkendelsesapp', 'Log ind', 'Bekræft', 'Annuller', 'Tillad', 'Afvis', 'Tilbagekald']);
  });
});

describe('language choice (CONTRACT §18)', () => {
  it('takes the first supported tag of ui_locales', () => {
    expect(firstSupportedTag('fr-CA en-GB da')).toBe('en');
    expect(firstSupportedTag('da-DK')).toBe('da');
    expect(firstSupportedTag('xx')).toBeNull();
    expect(firstSupportedTag(['da'])).toBeNull();
  });

  it('honours Accept-Language weights; garbage and q=0 are skipped', () => {
    expect(fromAcceptLanguage('en;q=0.5, da;q=0.8')).toBe('da');
    expect(fromAcceptLanguage('de-DE, en-US;q=0.9, da;q=0.7')).toBe('en');
    expect(fromAcceptLanguage('da;q=0, en;q=0.1')).toBe('en');
    expect(fromAcceptLanguage('*;q=0.1, garbage')).toBeNull();
    expect(fromAcceptLanguage('en;q=0, *;q=0.5')).toBeNull();
    expect(fromAcceptLanguage('EN-gb')).toBe('en');
    expect(fromAcceptLanguage(';;;, q=, ,')).toBeNull();
    expect(fromAcceptLanguage('fr')).toBeNull();
    expect(fromAcceptLanguage(undefined)).toBeNull();
  });

  it('orders: the switch, ui_locales, the lang cookie, Accept-Language, the default', () => {
    const all = { switchTo: 'en', uiLocales: 'da', cookie: 'en', acceptLanguage: 'da', fallback: 'da' as const };
    expect(chooseLanguage(all)).toBe('en');
    expect(chooseLanguage({ ...all, switchTo: undefined })).toBe('da');
    expect(chooseLanguage({ ...all, switchTo: undefined, uiLocales: undefined })).toBe('en');
    expect(chooseLanguage({ ...all, switchTo: undefined, uiLocales: undefined, cookie: undefined })).toBe('da');
    expect(chooseLanguage({ fallback: 'da', acceptLanguage: 'en' })).toBe('en');
    expect(chooseLanguage({ fallback: 'da' })).toBe('da');
    expect(chooseLanguage({ fallback: 'en' })).toBe('en');
    expect(chooseLanguage({ fallback: 'da', switchTo: 'zz', uiLocales: 'xx', cookie: 'klingon', acceptLanguage: '*;q=0.1, garbage' })).toBe('da');
    expect(chooseLanguage({ fallback: 'en', switchTo: 'zz', uiLocales: 'xx', cookie: 'klingon', acceptLanguage: '*;q=0.1, garbage' })).toBe('en');
  });
});

describe('Intl formatting (CONTRACT §18)', () => {
  it('writes øre as kroner in each language, exactly', () => {
    expect(formatAmount('da', 700000)).toBe('7.000,00 kr.');
    expect(formatAmount('en', 700000)).toBe('DKK 7,000.00');
    expect(formatAmount('da', 5n)).toBe('0,05 kr.');
    expect(formatAmount('da', '9999999999999999')).toBe('99.999.999.999.999,99 kr.');
  });

  it('writes dates in words, and times with their zone', () => {
    expect(formatDate('da', '2026-11-20')).toBe('20. november 2026');
    expect(formatDate('en', '2026-11-20')).toBe('20 November 2026');
    // 23:30 UTC on 24 February is 25 February in Copenhagen
    expect(formatDate('da', new Date(Date.UTC(2027, 1, 24, 23, 30)))).toBe('25. februar 2027');
    expect(formatDate('en', new Date(Date.UTC(2027, 1, 24, 23, 30)))).toBe('25 February 2027');
    expect(formatDateTime('da', new Date(Date.UTC(2026, 10, 20, 12, 0)))).toBe('20. november 2026 kl. 13.00 CET');
    expect(formatDateTime('en', new Date(Date.UTC(2026, 10, 20, 12, 0)))).toBe('20 November 2026 at 13:00 CET');
    expect(formatUtc(new Date(Date.UTC(2026, 10, 25, 23, 15, 58)))).toBe('2026-11-25 23:15:58 UTC');
  });
});
