import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { ConnectionShare } from '../../../shared/database/connection-share';
import { connectionsOf } from '../../../shared/database/data-source';

/**
 * CONTRACT §20 "Downloads": the reads of attachment bytes run through their own share of the instance's
 * database connections, never more than half of them, so other calls keep answering however many
 * downloads run (PGlite's one session: one).
 */
@Injectable()
export class DownloadShare extends ConnectionShare {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(Math.max(1, Math.floor(connectionsOf(config.database) / 2)));
  }
}
