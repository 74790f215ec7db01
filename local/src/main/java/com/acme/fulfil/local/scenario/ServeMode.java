package com.acme.fulfil.local.scenario;

import com.acme.fulfil.local.Deployment;
import com.acme.fulfil.local.TimeScale;
import com.acme.fulfil.local.aws.AwsConnection;
import com.acme.fulfil.local.aws.OrdersStack;
import com.acme.fulfil.local.aws.QueueRef;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The local stack with this project's configuration, left running for a person: send orders, watch
 * the function's log lines, inspect and redrive the DLQ with the AWS CLI, as the runbook says.
 */
public final class ServeMode {
  private static final String SAMPLE_ORDER = "{\"order_id\":\"ORD-TRY-0001\",\"placed_at\":\"2026-11-20T14:03:11Z\","
      + "\"service\":\"standard\",\"ship_to\":{\"name\":\"Test Customer\",\"line1\":\"1 Example Street\",\"line2\":null,"
      + "\"city\":\"London\",\"postcode\":\"AB1 2CD\",\"country\":\"GB\"},\"parcels\":[{\"weight_grams\":1200}]}";

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
  public void serve(Deployment deployment, long seed, PrintStream out) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    try (DeploymentRun run = new DeploymentRun(deployment, aws, stack, sqs, scale, seed)) {
      run.start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        run.close();
        stopped.countDown();
      }));
      out.println(instructions(run, deployment));
      stopped.await();
    }
  }

  private String instructions(DeploymentRun run, Deployment deployment) {
    String sqsUrl = aws.sqsEndpoint().orElseThrow().toString();
    String dynamoUrl = aws.dynamoDbEndpoint().orElseThrow().toString();
    String secretsUrl = aws.secretsManagerEndpoint().orElseThrow().toString();
    QueueRef source = run.queues().source();
    QueueRef dlq = run.queues().deadLetter().orElseThrow();
    String sqsCli = "aws --endpoint-url " + sqsUrl + " sqs ";
    return String.join(System.lineSeparator(),
        "fulfil-order is running locally at time scale " + scale + " (visibility "
            + deployment.queue().visibilityTimeout().toSeconds() + " s, function timeout "
            + deployment.mapping().functionTimeout().toSeconds() + " s, DLQ after "
            + deployment.queue().redrive().orElseThrow().maxReceiveCount() + " receives). Ctrl-C stops it.",
        "",
        "  SQS             " + sqsUrl + "   queue " + source.url(),
        "                  " + " ".repeat(sqsUrl.length()) + "   DLQ   " + dlq.url(),
        "  DynamoDB        " + dynamoUrl + "   table " + run.table().orElseThrow(),
        "  Secrets Manager " + secretsUrl + "   secret " + run.secretId(),
        "  Partner         " + run.partnerUrl() + "   (simulated; latencies of the incident, scaled)",
        "",
        "In another shell (any AWS CLI; these credentials are the stack's fixed fake ones):",
        "",
        "  export AWS_ACCESS_KEY_ID=" + aws.credentials().accessKeyId() + " AWS_SECRET_ACCESS_KEY="
            + aws.credentials().secretAccessKey() + " AWS_DEFAULT_REGION=" + aws.region(),
        "  # send an order (send it twice: the partner is booked once)",
        "  " + sqsCli + "send-message --queue-url " + source.url() + " --message-body '" + SAMPLE_ORDER + "'",
        "  # send a poison message: after " + deployment.queue().redrive().orElseThrow().maxReceiveCount()
            + " quick receives it is in the DLQ",
        "  " + sqsCli + "send-message --queue-url " + source.url() + " --message-body 'not json'",
        "  # what the queues hold",
        "  " + sqsCli + "get-queue-attributes --queue-url " + source.url() + " --attribute-names All",
        "  " + sqsCli + "receive-message --queue-url " + dlq.url()
            + " --attribute-names All --message-attribute-names All --visibility-timeout 0",
        "  # redrive the DLQ into the queue (AWS CLI v1 or v2.13+)",
        "  " + sqsCli + "start-message-move-task --source-arn " + dlq.arn() + " --destination-arn " + source.arn(),
        "  # the idempotency records",
        "  aws --endpoint-url " + dynamoUrl + " dynamodb scan --table-name " + run.table().orElseThrow(),
        "  # what the partner booked for an order",
        "  curl -s -H \"X-Api-Key: $(aws --endpoint-url " + secretsUrl + " secretsmanager get-secret-value --secret-id "
            + run.secretId() + " --query SecretString --output text)\" '" + run.partnerUrl()
            + "/v1/shipments?order_id=ORD-TRY-0001'",
        "");
  }
}
