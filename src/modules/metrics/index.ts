// The metrics module's public surface: the composition root imports only this file.
export { ServiceMetrics } from './service-metrics';
