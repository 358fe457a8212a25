// The health module's public surface: the composition root imports only this file.
export { HealthModule } from './health.module';
