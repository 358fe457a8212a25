import 'reflect-metadata';
import { Body, Controller, Get, Post, Req, RequestMethod } from '@nestjs/common';
import { routesTakingBody } from './body-routes';

@Controller(['api/partner/v1/things', 'api/partner/sandbox/v1/things'])
class ThingsController {
  @Post()
  create(@Body() _body: unknown) {
    return {};
  }

  @Post('check')
  check(@Req() _req: unknown, @Body() _body: unknown) {
    return {};
  }

  /** reads its own body (an upload): no JSON parsing */
  @Post(':id/files')
  upload(@Req() _req: unknown) {
    return {};
  }

  @Get()
  list() {
    return [];
  }
}

@Controller('health')
class NoBodyController {
  @Get('live')
  live() {
    return {};
  }
}

describe('routesTakingBody', () => {
  it('lists each handler with a @Body() parameter at every base path, and nothing else', () => {
    expect(routesTakingBody([ThingsController, NoBodyController])).toEqual([
      { path: 'api/partner/v1/things', method: RequestMethod.POST },
      { path: 'api/partner/sandbox/v1/things', method: RequestMethod.POST },
      { path: 'api/partner/v1/things/check', method: RequestMethod.POST },
      { path: 'api/partner/sandbox/v1/things/check', method: RequestMethod.POST },
    ]);
  });
});
