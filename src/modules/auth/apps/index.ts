// The apps module's public surface: other modules and the composition root import only this file.
export { AppsModule } from './apps.module';
export { AppService } from './application/app.service';
export { AppRepository, type AppRecord, type PendingRevision } from './domain/app.repository';
export { type AppPublisher, AppReadRepository, type AppSummary } from './domain/app-read.repository';
export { isHttpsUrl, PUBLISHER_NAME_MAX, type PublisherProblem, publisherProblems } from './domain/app-publisher';
