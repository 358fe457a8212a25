// The apps module's public surface: other modules and the composition root import only this file.
export { AppsModule } from './apps.module';
export { AppService } from './application/app.service';
export { AppRepository, type AppRecord, type PendingRevision } from './domain/app.repository';
export { type AppPublisher, AppReadRepository, type AppSummary, NO_PUBLISHER } from './domain/app-read.repository';
export { CVR_RULE, isHttpsUrl, isValidCvr, PUBLISHER_NAME_MAX, type PublisherDraft, type PublisherProblem, publisherProblems } from './domain/app-publisher';
export { APPS_FACTS } from './facts';
