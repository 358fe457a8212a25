// The developers module's public surface: the composition root imports only this file.
export { DevelopersModule } from './developers.module';
export { RequestLogRecorder } from './application/request-log.recorder';
export { DevelopersCoreModule } from './developers-core.module';
export { type CreatedDeveloper, DeveloperOperatorService } from './application/developer-operator.service';
export { DEVELOPERS_FACTS } from './facts';
