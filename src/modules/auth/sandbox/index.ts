// The sandbox module's public surface: other modules and the composition root import only this file.
export { SandboxModule } from './sandbox.module';
export { SandboxService } from './application/sandbox.service';
