import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import { EventsFeedService, type EventsPage, type EventsQuery } from '../application/events-feed.service';

/** `GET {base}/events` (CONTRACT §14) under both partner bases. */
@ApiTags('events')
@Controller(PARTNER_BASES.map((base) => `${base}/events`))
export class EventsController {
  constructor(private readonly events: EventsFeedService) {}

  @Get()
  @PartnerRoute('operations:read')
  @ApiOperation({ summary: "The app's events in commit order (catch-up for webhooks)" })
  list(@Caller() caller: CallerContext, @Query() query: EventsQuery): Promise<EventsPage> {
    return this.events.page(caller, { after: query.after, limit: query.limit });
  }
}
