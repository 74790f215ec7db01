package com.acme.fulfil.local;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.EmbeddedAws;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.scenario.DeploymentReport;
import com.acme.fulfil.local.scenario.Durations;
import com.acme.fulfil.local.scenario.ReportJson;
import com.acme.fulfil.local.scenario.ReportText;
import com.acme.fulfil.local.scenario.CutoverRun;
import com.acme.fulfil.local.scenario.Scenario;
import com.acme.fulfil.local.scenario.ScenarioSettings;
import com.acme.fulfil.local.scenario.ServeMode;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * README's first command: the incident and the fix, side by side, on an embedded AWS stack; or, with
 * {@code --serve}, the stack left running for the AWS CLI. Exits 1 if this project's configuration
 * booked an order twice or lost one, so CI can run it as a check.
 */
public final class LocalRun {
  /**
   * The run's length, in local time, after the sending: 20 s (10 minutes) for the last orders to be
   * booked; a partner mode with transient failures needs time for retries, which fixed-1800 makes wait
   * 60 s (1,800 s real) each. The incident gets at least 30 s (15 minutes) to show itself.
   */
  private static final Duration MINIMUM_RUN = Duration.ofSeconds(30);
  private static final Duration HEALTHY_DRAIN = Duration.ofSeconds(20);
  private static final Duration RETRYING_DRAIN = Duration.ofSeconds(140);
  /** By default the checkout service sends at this share of what the fixed configuration books: no backlog. */
  private static final double DEFAULT_LOAD = 0.75;

  private LocalRun() {}

  public static void main(String[] args) throws Exception {
    RunOptions options;
    try {
      options = RunOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println();
      System.err.print(RunOptions.USAGE);
      System.exit(2);
      return;
    }
    if (options.help()) {
      System.out.print(RunOptions.USAGE);
      return;
    }
    LocalLogging.Files logs = options.serve() ? null : LocalLogging.forScenario();
    TimeScale scale = TimeScale.INCIDENT_REPLAY;
    TimingBudget budget = TimingBudget.builder().batchSize(options.batchSize()).build();
    PrintStream out = logs == null ? System.out : logs.terminal();
    long started = System.nanoTime();
    try (EmbeddedAws aws = EmbeddedAws.start();
        SqsClient sqs = aws.connection().sqsClient();
        DynamoDbClient dynamoDb = aws.connection().dynamoDbClient();
        SecretsManagerClient secrets = aws.connection().secretsManagerClient()) {
      AwsConnection connection = aws.connection();
      OrdersStack stack = new OrdersStack(sqs, dynamoDb, secrets);
      if (options.serve()) {
        new ServeMode(connection, stack, sqs, scale)
            .serve(Deployment.fulfilOrder(budget, scale, options.concurrency(), options.artifact()), budget, options.seed(), out);
        return;
      }
      if (options.cutover()) {
        int exit = new CutoverRun(connection, scale, out).run(options.orders(), options.concurrency(), options.seed(),
            options.artifact());
        out.flush();
        System.exit(exit);
      }
      int exit = runScenario(options, List.of(args), scale, budget, connection, stack, sqs, out, logs, started);
      out.flush();
      System.exit(exit);
    }
  }

  private static int runScenario(RunOptions options, List<String> arguments, TimeScale scale, TimingBudget budget, AwsConnection connection,
      OrdersStack stack, SqsClient sqs, PrintStream out, LocalLogging.Files logs, long started) throws InterruptedException, IOException {
    List<Deployment> deployments = new ArrayList<>();
    if (options.configurations().contains("incident")) {
      deployments.add(Deployment.incident(scale));
    }
    if (options.configurations().contains("fixed")) {
      deployments.add(Deployment.fulfilOrder(budget, scale, options.concurrency(), options.artifact()));
    }
    if (options.configurations().contains("fixed-1800")) {
      deployments.add(Deployment.waitingOutTheVisibilityTimeout(budget, scale, options.concurrency(), options.artifact()));
    }
    long ordersPerHour = options.ordersPerHour().map(Integer::longValue).orElseGet(() ->
        (long) (budget.capacity(options.concurrency()).typicalOrdersPerHour() * DEFAULT_LOAD) / 10 * 10);
    Duration sendSpread = ScenarioSettings.spreadFor(options.orders(), ordersPerHour, scale);
    ScenarioSettings settings = new ScenarioSettings(options.orders(), options.poisonShare(), options.rejectedShare(),
        options.partnerDay(), options.seed(), sendSpread,
        options.deadline().orElse(sendSpread.plus(options.partnerDay().causesRetries() ? RETRYING_DRAIN : HEALTHY_DRAIN)
            .plus(options.partnerDay().longerRun())),
        MINIMUM_RUN);
    String header = header(settings, scale, deployments, logs);
    out.println(header);
    Progress progress = new Progress(out);
    List<DeploymentReport> reports =
        new Scenario(connection, stack, sqs, scale, settings, budget).run(deployments, progress);
    progress.done();
    out.println();
    String report = new ReportText(scale).format(reports);
    out.println(report);
    if (options.report().isPresent()) {
      GeneratedReport.LOCAL_RUN.write(options.report().get(), arguments,
          "```text\n" + header + "\n\n" + report + "\n```\n", Clock.systemUTC());
      out.println("Markdown report: " + options.report().get().toAbsolutePath());
    }
    if (options.json().isPresent()) {
      new ReportJson(scale, settings).write(reports, options.json().get());
      out.println("JSON report: " + options.json().get().toAbsolutePath());
    }
    out.printf("Wall time: %.1f s, embedded stack start-up included.%n", (System.nanoTime() - started) / 1e9);
    boolean fixedKeptItsPromises = reports.stream()
        .filter(r -> r.configuration().equals("fixed"))
        .allMatch(r -> r.bookedTwiceOrMore() == 0 && r.lost() == 0);
    return fixedKeptItsPromises ? 0 : 1;
  }

  private static String header(ScenarioSettings settings, TimeScale scale, List<Deployment> deployments, LocalLogging.Files logs) {
    List<String> lines = new ArrayList<>();
    lines.add("Time scale " + scale + ": every duration divided by " + scale.divisor()
        + " (30 s visibility -> 1 s, 1,800 s -> 60 s, a 280 s partner call -> 9.3 s); real-world equivalents in brackets."
        + " Real work keeps its seconds whatever the scale (" + LocalBudget.REAL_WORK.toSeconds() + " s for the lookup"
        + " timeout and the margin around a partner call, " + LocalBudget.COLD_TRY.toSeconds() + " s to spare for a try's"
        + " claim), so this project's function timeout and visibility grow, and send to booking gives the partner's"
        + " share its real-world equivalent and the rest, this machine's own work, none.");
    lines.add(settings.orders() + " orders over " + Durations.both(settings.sendSpread(), scale) + " ("
        + String.format(java.util.Locale.ROOT, "%,d", settings.offeredOrdersPerHour(scale)) + " real orders an hour), "
        + Math.round(settings.poisonShare() * 100) + "% poison, " + Math.round(settings.rejectedShare() * 100)
        + "% rejected by the partner; partner: " + settings.partnerDay().description() + "; seed " + settings.seed()
        + "; deadline " + settings.deadline().toSeconds() + " s.");
    for (Deployment d : deployments) {
      lines.add(String.format("  %-10s visibility %2d s, function timeout %2d s, batch %2d, concurrency %s, %s",
          d.name(), d.queue().visibilityTimeout().toSeconds(), d.mapping().functionTimeout().toSeconds(),
          d.mapping().batchSize(), d.mapping().maxConcurrency() == Deployment.NO_MAXIMUM_CONCURRENCY
              ? "no maximum" : Integer.toString(d.mapping().maxConcurrency()),
          d.queue().redrive().map(r -> "DLQ after " + r.maxReceiveCount() + " receives").orElse("no DLQ")));
    }
    lines.add("Function output (JSON logs and EMF metrics, as CloudWatch would hold them): " + logs.function());
    lines.add("Local stack logs: " + logs.stack());
    return String.join(System.lineSeparator(), lines);
  }

  /** Rewrites one line on a terminal; in a log (CI), prints a line every five seconds instead. */
  private static final class Progress implements Consumer<String> {
    private static final long LOG_EVERY_NANOS = Duration.ofSeconds(5).toNanos();
    private final PrintStream out;
    private final boolean terminal = System.console() != null;
    private long lastLogged;
    private int width;

    Progress(PrintStream out) {
      this.out = out;
    }

    @Override
    public void accept(String line) {
      if (terminal) {
        out.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
        width = line.length();
        out.flush();
      } else if (System.nanoTime() - lastLogged >= LOG_EVERY_NANOS) {
        out.println(line);
        lastLogged = System.nanoTime();
      }
    }

    void done() {
      if (terminal) {
        out.println();
      }
    }
  }
}
