// The owner pages' public surface: the composition root imports only this file.
export { OwnerPagesModule } from './owner-pages.module';
export { ConnectedAppsService } from './application/connected-apps.service';
