import { Module } from '@nestjs/common';
import { EventsController } from './api/events.controller';
import { EventsFeedService } from './application/events-feed.service';
import { EventFeedRepository } from './domain/event-feed';
import { PgEventFeedRepository } from './infrastructure/pg-event-feed.repository';

/** The events feed `GET {base}/events` on the partner listener (CONTRACT §14): reads the outbox, sends nothing. */
@Module({
  controllers: [EventsController],
  providers: [EventsFeedService, { provide: EventFeedRepository, useClass: PgEventFeedRepository }],
})
export class EventsFeedApiModule {}
