import { defineCatalogue } from './i18n';

/**
 * The page kernel's own texts (CONTRACT §18): the layout, the sign-in fields every sign-in form
 * shares (§11, §15: **Email**, **Password**, **Authenticator code**), the confirmation step and the
 * answers every page set gives. Danish as a Danish owner reads it.
 */
export const WEB_MESSAGES = defineCatalogue('web', {
  en: {
    languageSwitch: 'Language',
    email: 'Email',
    password: 'Password',
    authenticatorCode: 'Authenticator code',
    authenticatorCodeHelp: 'The six digits your authenticator app shows now. Spaces are ignored.',
    signIn: 'Sign in',
    signOut: 'Sign out',
    confirm: 'Confirm',
    cancel: 'Cancel',
    confirmTitle: 'Are you sure?',
    signInFailed: 'Sign-in failed. Check your email, password and authenticator code, and try again.',
    signInLocked: 'Too many failed sign-ins for this email. Wait 15 minutes, then try again.',
    badRequestTitle: 'Bad request',
    badForm: 'The form could not be read. Go back and try again.',
    controlCharacter: 'A field of the form holds a control character, which cannot be used. Go back and type it again.',
    refusedTitle: 'Request refused',
    refused: 'This form has expired or did not come from this site. Nothing was changed. Go back to the app and start again.',
    notFoundTitle: 'Not found',
    skipToContent: 'Skip to content',
    issuedOnce: 'shown this once; copy it now.',
    tooManyTitle: 'Too many requests',
    tooMany: 'Too many attempts from your address. Try again in {seconds, plural, one {# second} other {# seconds}}.',
  },
  da: {
    languageSwitch: 'Sprog',
    email: 'E-mail',
    password: 'Adgangskode',
    authenticatorCode: 'Kode fra godkendelsesapp',
    authenticatorCodeHelp: 'De seks cifre, din godkendelsesapp viser lige nu. Mellemrum ignoreres.',
    signIn: 'Log ind',
    signOut: 'Log ud',
    confirm: 'Bekræft',
    cancel: 'Annuller',
    confirmTitle: 'Er du sikker?',
    signInFailed: 'Du kunne ikke logges ind. Tjek din e-mail, adgangskode og kode fra godkendelsesappen, og prøv igen.',
    signInLocked: 'For mange mislykkede login for denne e-mail. Vent 15 minutter, og prøv så igen.',
    badRequestTitle: 'Ugyldig forespørgsel',
    badForm: 'Formularen kunne ikke læses. Gå tilbage, og prøv igen.',
    controlCharacter: 'Et felt i formularen indeholder et kontroltegn, som ikke kan bruges. Gå tilbage, og skriv det igen.',
    refusedTitle: 'Forespørgslen blev afvist',
    refused: 'Formularen er udløbet eller kom ikke fra dette websted. Intet er ændret. Gå tilbage til appen, og start forfra.',
    notFoundTitle: 'Ikke fundet',
    skipToContent: 'Gå til indhold',
    issuedOnce: 'vises kun denne ene gang; kopiér den nu.',
    tooManyTitle: 'For mange forespørgsler',
    tooMany: 'For mange forsøg fra din adresse. Prøv igen om {seconds, plural, one {# sekund} other {# sekunder}}.',
  },
});
