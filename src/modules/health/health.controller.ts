import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { ServiceUnavailableError } from '../../shared/domain/errors';

const READ_ONLY_CHECK = `SELECT (pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on') AS read_only`;

/** Liveness and readiness for orchestrators; public, no token (CONTRACT §1). */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Ready when the database answers within 2 s and takes writes: with several hosts (CONTRACT §16) a
   * pooled session on a host that became a standby or read-only is not ready.
   */
  @Get('ready')
  @HttpCode(200)
  async ready(): Promise<{ status: 'ok'; database: 'up' }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), 2000);
    });
    let rows: Array<{ read_only: boolean }>;
    try {
      rows = await Promise.race([this.dataSource.query(READ_ONLY_CHECK), timeout]);
    } catch {
      throw new ServiceUnavailableError('The database cannot be reached');
    } finally {
      clearTimeout(timer);
    }
    if (rows[0]?.read_only !== false) throw new ServiceUnavailableError('The database host accepts no writes');
    return { status: 'ok', database: 'up' };
  }
}
