package com.acme.fulfil.local.scenario;

import com.acme.fulfil.contract.oncall.RunbookSections;
import com.acme.fulfil.contract.timing.TimingBudget;
import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueRef;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The local stack with this project's configuration, left running for a person: it prints the shell
 * variables that make docs/runbook.md's commands work against it, and the runbook's drill (send
 * orders, watch the function's log lines, inspect and redrive the DLQ with the AWS CLI).
 */
public final class ServeMode {
  private final AwsConnection aws;
  private final OrdersStack stack;
  private final SqsClient sqs;
  private final TimeScale scale;

  public ServeMode(AwsConnection aws, OrdersStack stack, SqsClient sqs, TimeScale scale) {
    this.aws = aws;
    this.stack = stack;
    this.sqs = sqs;
    this.scale = scale;
  }

  /** Runs until the process is interrupted (Ctrl-C). */
  /** @param budget the stack's, in real time */
  public void serve(Deployment deployment, TimingBudget budget, long seed, PrintStream out) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    try (ServedStack served = new ServedStack(deployment, aws, stack, sqs, scale, seed, budget,
        page -> page.lines(scale).forEach(out::println))) {
      served.start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        served.close();
        stopped.countDown();
      }));
      out.println(instructions(served, deployment));
      stopped.await();
    }
  }

  private String instructions(ServedStack served, Deployment deployment) {
    DeploymentRun run = served.run();
    String sqsUrl = aws.sqsEndpoint().orElseThrow().toString();
    String dynamoUrl = aws.dynamoDbEndpoint().orElseThrow().toString();
    String secretsUrl = aws.secretsManagerEndpoint().orElseThrow().toString();
    QueueRef source = run.queues().source();
    QueueRef dlq = run.queues().deadLetter().orElseThrow();
    String table = run.table().orElseThrow();
    RunbookEnvironment runbook = served.environment();
    List<String> lines = new ArrayList<>(List.of(
        "fulfil-order is running locally at time scale " + scale + " (visibility "
            + deployment.queue().visibilityTimeout().toSeconds() + " s, function timeout "
            + deployment.mapping().functionTimeout().toSeconds() + " s, DLQ after "
            + deployment.queue().redrive().orElseThrow().maxReceiveCount() + " receives). Ctrl-C stops it.",
        "",
        "  SQS             " + sqsUrl + "   queue " + source.url(),
        "                  " + " ".repeat(sqsUrl.length()) + "   DLQ   " + dlq.url(),
        "  DynamoDB        " + dynamoUrl + "   table " + table,
        "  Secrets Manager " + secretsUrl + "   secret " + run.secretId(),
        "  Partner         " + run.partnerUrl() + "   (simulated; latencies of the incident, scaled)",
        "",
        "Paste these into another shell: they point the AWS CLI at this stack (fake credentials) and set the",
        "variables docs/runbook.md's commands use, which \"Before you start\" reads from the stack's outputs in AWS.",
        ""));
    runbook.exportLines().forEach(line -> lines.add("  " + line));
    lines.add("");
    lines.add("Then the runbook's drill (" + RunbookSections.see(RunbookSections.REHEARSALS)
        + ", with its other rehearsals); this terminal shows the function's log lines:");
    lines.add("");
    RunbookDrill.text().lines().forEach(line -> lines.add("  " + line));
    lines.add("");
    lines.add("The same section rehearses the other pages here: a partner's 422, an outage and a rotated key.");
    lines.add("");
    lines.add("The stack's alarms play here as in AWS, their periods scaled: each page prints here as it fires (ALARM),");
    lines.add("with its first command and section, and as it clears (OK). Not played here:");
    LocalStandIn.ALL.stream().filter(standIn -> standIn.notPlayed().isPresent())
        .forEach(standIn -> lines.add("  " + standIn.alarm() + ": " + standIn.notPlayed().get()));
    lines.add("");
    return String.join(System.lineSeparator(), lines);
  }
}
