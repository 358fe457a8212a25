// The console module's public surface: the composition root imports only this file.
export { ConsoleModule } from './console.module';
