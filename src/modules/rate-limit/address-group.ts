/** The unit the anonymous limit counts (CONTRACT §12): one definition with the sign-in lockouts' (shared/http/client-address.ts). */
export { clientAddressGroup as addressGroup } from '../../shared/http/client-address';
