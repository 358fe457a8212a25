import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Body, Controller, Get, Post, Req, RequestMethod, SetMetadata, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { PARTNER_ROUTE } from '../../modules/auth/access/api/partner-route.decorator';
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

class BaseController {
  @Post('inherited')
  inherited(@Body() _body: unknown) {
    return {};
  }
}
@Controller('derived')
class DerivedController extends BaseController {}

describe('routesTakingBody and inheritance', () => {
  it('finds a @Body() handler a controller inherits (Nest routes it, so it needs the body parser too)', () => {
    expect(routesTakingBody([DerivedController])).toEqual([{ path: 'derived/inherited', method: RequestMethod.POST }]);
  });
});

/**
 * Every partner operation of src/modules whose code reads the request body takes it with @Body(): the JSON
 * body middleware is bound to exactly those handlers, so one that reads `req.body` otherwise (a custom
 * parameter decorator, `@Req()`) would get no body and answer every request 400 `invalid_input` at "".
 * A route that reads its own body as a stream (the attachment upload) does not read `.body` and is not named.
 */
describe('the JSON body registration of every partner controller', () => {
  const root = join(__dirname, '..', '..', 'modules');
  const controllerFiles = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.controller.ts'))
    .map((f) => join(root, f));

  it('finds the partner controllers', () => {
    expect(controllerFiles.length).toBeGreaterThan(10);
  });

  it('binds the body parser to every partner handler that reads the body', () => {
    expect(handlersReadingBodyWithoutBinding(controllerFiles)).toEqual([]);
  });

  it('names the handler and the file to edit when one is missed (the check can fail)', () => {
    @Controller('api/partner/v1/customers')
    class CustomersController {
      @Post()
      @SetMetadata(PARTNER_ROUTE, { scope: 'products:create' })
      create(@Req() req: { body: unknown }) {
        return req.body;
      }
    }
    expect(partnerHandlersMissingBody([CustomersController], 'src/modules/customers/api/customers.controller.ts')).toEqual([
      'CustomersController.create (src/modules/customers/api/customers.controller.ts) reads the request body without a @Body() parameter: ' +
        'the JSON body parser is bound only to @Body() handlers (src/shared/http/body-routes.ts); take the body with @Body() in that file',
    ]);
  });
});

function handlersReadingBodyWithoutBinding(files: string[]): string[] {
  return files.flatMap((file) => {
    const exported = Object.values(require(file) as Record<string, unknown>).filter(
      (v): v is Type => typeof v === 'function' && Reflect.getMetadata(PATH_METADATA, v) !== undefined,
    );
    return partnerHandlersMissingBody(exported, relative(join(__dirname, '..', '..', '..'), file));
  });
}

/** The partner handlers (@PartnerRoute) of these controllers whose code reads `.body` but that routesTakingBody does not list. */
function partnerHandlersMissingBody(controllers: Type[], file: string): string[] {
  const missing: string[] = [];
  for (const controller of controllers) {
    const listed = new Set(routesTakingBody([controller]).map((r) => `${r.method} ${r.path}`));
    const bases = [Reflect.getMetadata(PATH_METADATA, controller)].flat() as string[];
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PARTNER_ROUTE, handler) === undefined) continue;
      if (!/\.body\b/.test(handler.toString())) continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
      const path = [Reflect.getMetadata(PATH_METADATA, handler)].flat()[0] as string;
      const route = `${method} ${[bases[0], path]
        .map((p) => String(p ?? '').replace(/^\/+|\/+$/g, ''))
        .filter((p) => p !== '')
        .join('/')}`;
      if (!listed.has(route)) {
        missing.push(
          `${controller.name}.${name} (${file}) reads the request body without a @Body() parameter: ` +
            'the JSON body parser is bound only to @Body() handlers (src/shared/http/body-routes.ts); take the body with @Body() in that file',
        );
      }
    }
  }
  return missing;
}
