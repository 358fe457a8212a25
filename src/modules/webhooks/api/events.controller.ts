import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ref } from '../../../shared/http/openapi/common';
import { PartnerOperation, partnerJson } from '../../../shared/http/openapi/partner-operation';
import type { CallerContext } from '../../../shared/domain/caller-context';
import { PARTNER_BASES } from '../../../shared/http/partner-paths';
import { Caller, PartnerRoute } from '../../auth/access';
import { EventsFeedService, type EventsPage, type EventsQuery } from '../application/events-feed.service';
import { EVENTS_PAGE_SCHEMAS, EVENTS_QUERY } from './events.openapi';

/** `GET {base}/events` (CONTRACT §14) under both partner bases. */
@ApiTags('events')
@Controller(PARTNER_BASES.map((base) => `${base}/events`))
export class EventsController {
  constructor(private readonly events: EventsFeedService) {}

  @Get()
  @PartnerRoute('operations:read')
  @PartnerOperation({
    operationId: 'listEvents',
    summary: "The app's events in commit order (catch-up for webhooks)",
    success: partnerJson(200, 'A page of events; follow `next_cursor`.', ref('EventsPage')),
    errors: ['invalid_input'],
    schemas: EVENTS_PAGE_SCHEMAS,
    query: EVENTS_QUERY,
  })
  list(@Caller() caller: CallerContext, @Query() query: EventsQuery): Promise<EventsPage> {
    return this.events.page(caller, { after: query.after, limit: query.limit });
  }
}
