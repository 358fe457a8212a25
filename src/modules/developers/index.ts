// The developers module's public surface: the composition root imports only this file.
export { DevelopersModule } from './developers.module';
export { RequestLogRecorder } from './application/request-log.recorder';
