/** /api/system/pressure (SPEC §4.2): RAM, CPU, disk and VRAM readings and the throttle factor derived from them. */
import { Controller, Get } from '@nestjs/common';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import { Reply } from '../common/openapi';
import { SYSTEM_PRESSURE } from './engine.replies';
import { SystemPressureGauge } from './pressure-gauge';

@Controller('api/system')
export class EnginePressureController {
  constructor(private readonly gauge: SystemPressureGauge) {}

  @Get('pressure')
  @Reply(200, SYSTEM_PRESSURE)
  @Authenticated()
  pressure() {
    return this.gauge.reading();
  }
}
