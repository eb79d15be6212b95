/**
 * The origin's side of hive results: one consumer per node of
 * `svc.hive.results` (group `hive-results-<nodeId>`, so every node sees every
 * result) acts on the results addressed to this node (origin_node):
 * sub-task results become CompleteSubtask / FailSubtask on the goal,
 * expert results RecordExpertAnswer on the conversation (hive-tasks.ts).
 * A command that fails (a conflict beyond its retries, a store outage)
 * throws, so the bus hands the result over again;
 * the commands are idempotent, so a redelivered result records nothing twice.
 *
 * Runs where the background work runs (PROJECTIONS=inline or the worker).
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus, CommandHandlerNotFoundException, type ICommand } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { BusListener } from '../infrastructure/bus/bus-listener';
import { type BusMessage, type Headers, MESSAGE_BUS, type MessageBus } from '../infrastructure/bus/message-bus.port';
import { correlationHeader } from '../infrastructure/bus/trace-headers';
import { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { hiveNames, parseHiveResult } from '../modules/hive/hive-messages';
import { expertAnswerFor, goalCommandFor } from './hive-tasks';

@Injectable()
export class HiveResultsListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('HiveResults');
  private listener: BusListener | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly commands: CommandBus,
    private readonly lifecycle: PlatformLifecycle,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.lifecycle.writesInBackground()) return;
    const names = hiveNames(this.config.kafka?.topicPrefix);
    this.listener = new BusListener(
      this.bus,
      { groupId: names.resultsGroup(this.config.nodeId), topics: [names.results], fromBeginning: true },
      (message: BusMessage) => this.handle(message.value, message.headers),
      this.logger,
    );
    this.listener.start();
  }

  onModuleDestroy(): void {
    void this.listener?.stop();
  }

  /**
   * Acts on one result message (the group's handler; exported behaviour for
   * tests). The commands carry the message's `correlation-id` header (the
   * request that set the goal or the expert run going), else the body's.
   */
  async handle(value: unknown, headers: Headers = {}): Promise<void> {
    const parsed = parseHiveResult(value);
    if (!parsed || parsed.origin_node !== this.config.nodeId) return;
    const result = { ...parsed, correlation_id: correlationHeader(headers) ?? parsed.correlation_id };
    const command: ICommand | null = goalCommandFor(result, this.config.nodeId) ?? expertAnswerFor(result, this.config.nodeId);
    if (!command) return;
    try {
      await this.commands.execute(command);
    } catch (error) {
      // no chat module in this process: nobody can take the answer, and retrying will not change that
      if (error instanceof CommandHandlerNotFoundException) {
        this.logger.warn(`dropping the result of ${result.task_id}: ${error.message}`);
        return;
      }
      throw error;
    }
  }
}
