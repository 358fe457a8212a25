// The sandbox module's public surface: other modules and the composition root import only this file.
export { SandboxModule } from './sandbox.module';
export { SandboxService } from './application/sandbox.service';
// the sample chart of §8, also a developer's demo company's (CONTRACT §15)
export { SANDBOX_ACCOUNTS, SANDBOX_TAX_CODES } from './domain/sandbox-chart';
export { SANDBOX_FACTS } from './facts';
