import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { BACKUP_BODY_SCHEMA, backupRequest, LINK_DEVICE_BODY_SCHEMA, linkDeviceRequest, RESTORE_BODY_SCHEMA, restoreRequest } from './sync.requests';

describe('the sync routes’ body schemas agree with their readers', () => {
  it('given link-device bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(LINK_DEVICE_BODY_SCHEMA, linkDeviceRequest, {
      valid: { device_id: 'phone-1', device_name: 'Pocket', platform: 'ios', form_factor: 'phone', capabilities: { camera: true } },
      candidates: { device_id: ['d'.repeat(200), 'd'.repeat(201)], device_name: ['n'.repeat(200), 'n'.repeat(201)], platform: ['p'.repeat(50), 'p'.repeat(51)] },
    });
  });

  it('given backup bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(BACKUP_BODY_SCHEMA, backupRequest, { valid: { passphrase: 'correct horse' }, candidates: { passphrase: ['1234567', '12345678', 'p'.repeat(1025)] } });
  });

  it('given restore bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(RESTORE_BODY_SCHEMA, restoreRequest, { valid: { passphrase: 'correct horse', backup_id: 'bk_1' }, candidates: { backup_id: ['b'.repeat(64), 'b'.repeat(65)] } });
  });
});
