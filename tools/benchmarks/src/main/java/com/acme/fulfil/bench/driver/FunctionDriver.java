package com.acme.fulfil.bench.driver;

import com.acme.fulfil.bench.driver.crac.Core;
import com.acme.fulfil.local.esm.FunctionIdentity;
import com.acme.fulfil.local.esm.LocalLambdaContext;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The main of a fresh child JVM whose classpath is the unpacked artifact (root and {@code lib/*.jar},
 * as Lambda lays out {@code /var/task}) plus this package: it plays Lambda's runtime for one sandbox.
 * It constructs the handler by its class name with the no-argument constructor, so the function reads
 * its configuration from the process environment as in Lambda, optionally runs the SnapStart checkpoint
 * hooks, invokes it, and writes what it measured to a result file (standard output is the function's,
 * as CloudWatch Logs would receive it).
 *
 * <p>Kept to the JDK, the Lambda programming model the artifact itself carries, and the local run's invocation
 * {@code Context} ({@link LocalLambdaContext}), which {@code DriverClasses} copies into the driver's jar beside
 * this class; never in the artifact.
 *
 * <pre>
 * cold &lt;result file&gt; [--prime]               one invocation of one order, timestamps of each phase
 * warm &lt;result file&gt; &lt;warm-up&gt; &lt;measured&gt;     one order per invocation, the measured durations in ns
 * </pre>
 */
public final class FunctionDriver {
  static final String HANDLER_CLASS = "com.acme.fulfil.handler.FulfilOrderHandler";
  private static final FunctionIdentity FUNCTION = new FunctionIdentity("fulfil-order", "us-east-1");
  private static final Duration FUNCTION_TIMEOUT = Duration.ofSeconds(300);
  private static final String QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:orders-to-fulfil";

  private FunctionDriver() {}

  public static void main(String[] args) throws Exception {
    long mainEntered = epochMicros();
    String mode = args[0];
    Path resultFile = Path.of(args[1]);
    List<String> result = new ArrayList<>();
    result.add("main=" + mainEntered);
    RequestHandler<SQSEvent, SQSBatchResponse> handler = construct();
    result.add("constructed=" + epochMicros());
    switch (mode) {
      case "cold" -> {
        if (args.length > 2 && "--prime".equals(args[2])) {
          // What SnapStart does when it publishes a version: run every registered org.crac hook, then
          // snapshot. The snapshot is restored later, so the time spent here leaves the first invocation.
          Core.checkpointRestore();
          result.add("checkpointHooks=" + Core.registered());
        }
        result.add("primed=" + epochMicros());
        SQSBatchResponse response = invoke(handler, "ORD-COLD-" + UUID.randomUUID());
        result.add("invoked=" + epochMicros());
        result.add("failures=" + response.getBatchItemFailures().size());
        // CPU time of every thread (JIT and GC included): less at the mercy of a busy machine than the wall clock.
        result.add("cpuMicros=" + cpuNanos() / 1000);
      }
      case "warm" -> {
        int warmUp = Integer.parseInt(args[2]);
        int measured = Integer.parseInt(args[3]);
        int failures = 0;
        for (int i = 0; i < warmUp; i++) {
          failures += invoke(handler, "ORD-WARM-UP-" + UUID.randomUUID()).getBatchItemFailures().size();
        }
        StringBuilder nanos = new StringBuilder();
        long cpuBefore = cpuNanos();
        for (int i = 0; i < measured; i++) {
          String orderId = "ORD-WARM-" + UUID.randomUUID();
          long start = System.nanoTime();
          SQSBatchResponse response = invoke(handler, orderId);
          long took = System.nanoTime() - start;
          failures += response.getBatchItemFailures().size();
          nanos.append(i == 0 ? "" : ",").append(took);
        }
        result.add("cpuNanosPerRecord=" + (cpuNanos() - cpuBefore) / measured);
        result.add("failures=" + failures);
        result.add("nanos=" + nanos);
      }
      default -> throw new IllegalArgumentException("unknown mode " + mode);
    }
    result.add("peakRssKb=" + peakResidentKilobytes());
    Files.write(resultFile, result);
    // The handler's pools would otherwise keep the JVM up for their idle timeouts.
    System.exit(0);
  }

  @SuppressWarnings("unchecked")
  private static RequestHandler<SQSEvent, SQSBatchResponse> construct() throws ReflectiveOperationException {
    return (RequestHandler<SQSEvent, SQSBatchResponse>) Class.forName(HANDLER_CLASS).getConstructor().newInstance();
  }

  private static SQSBatchResponse invoke(RequestHandler<SQSEvent, SQSBatchResponse> handler, String orderId) {
    SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
    message.setMessageId(UUID.randomUUID().toString());
    message.setReceiptHandle("driver-" + orderId);
    message.setBody(order(orderId));
    message.setAttributes(Map.of(
        MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT.toString(), "1",
        MessageSystemAttributeName.SENT_TIMESTAMP.toString(), Long.toString(System.currentTimeMillis())));
    message.setMessageAttributes(Map.of());
    message.setEventSource("aws:sqs");
    message.setEventSourceArn(QUEUE_ARN);
    message.setAwsRegion(FUNCTION.region());
    SQSEvent event = new SQSEvent();
    event.setRecords(List.of(message));
    return handler.handleRequest(event,
        new LocalLambdaContext(FUNCTION, UUID.randomUUID().toString(), System.nanoTime() + FUNCTION_TIMEOUT.toNanos()));
  }

  /** An order message as the contract describes it; the address is an invented placeholder. */
  static String order(String orderId) {
    return """
        {"order_id":"%s","placed_at":"2026-11-20T14:03:11Z","service":"standard",
         "ship_to":{"name":"Customer 1","line1":"1 Example Street","line2":null,"city":"London",
                    "postcode":"AB1 2CD","country":"GB"},
         "parcels":[{"weight_grams":1200}]}""".formatted(orderId);
  }

  /** CPU time of the whole process so far (every thread, JIT and GC included). */
  private static long cpuNanos() {
    return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos()).orElse(-1L);
  }

  /** The most memory the process has held in RAM (Linux's VmHWM), or -1 where /proc is not there. */
  private static long peakResidentKilobytes() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream()
          .filter(line -> line.startsWith("VmHWM:"))
          .mapToLong(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
          .findFirst().orElse(-1);
    } catch (IOException e) {
      return -1;
    }
  }

  private static long epochMicros() {
    return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
  }
}
