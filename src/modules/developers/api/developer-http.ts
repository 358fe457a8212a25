import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../../shared/config/app-config';
import { badFormPage, PageHttp, pageMiddleware, type WebRequest } from '../../../shared/web';
import type { DeveloperSession } from '../application/developer-account.service';
import { type DeveloperPage, renderPage } from '../views/pages';

export type DeveloperRequest = WebRequest<DeveloperSession>;

const developerPageMiddleware = pageMiddleware(badFormPage);

/** Security headers, cookies and form bodies for the developer pages only (routing comes first). */
@Injectable()
export class DeveloperHttpMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    developerPageMiddleware(req, res, next);
  }
}

/** The developer console's session cookie (`developer_session`), CSRF tokens and answers (src/shared/web). */
@Injectable()
export class DeveloperHttp extends PageHttp<DeveloperPage> {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config, 'developer', renderPage);
  }
}
