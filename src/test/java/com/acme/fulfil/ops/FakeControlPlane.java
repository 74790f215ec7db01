package com.acme.fulfil.ops;

import com.acme.fulfil.contract.timing.TimingBudget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * The parts of AWS that only a deployed stack has, answering as AWS documents them: CloudFormation's
 * DescribeStacks, GetTemplateSummary and drift detection (DetectStackDrift, DescribeStackDriftDetectionStatus,
 * DescribeStackResourceDrifts) and SNS's ListSubscriptionsByTopic (query protocol, XML), CloudWatch's
 * GetMetricData ({@link CloudWatchRpcV2}), Lambda's GetFunctionConfiguration, GetEventSourceMapping and
 * ListEventSourceMappings (REST, JSON), CloudWatch Logs'
 * FilterLogEvents (JSON 1.1) over the function's log lines. What it answers is a deployment as the CDK stack
 * makes it, and what drift detection finds once a test has changed it the way someone in the console would.
 * Queues and the table stay on the real (emulated) SQS and DynamoDB.
 */
final class FakeControlPlane implements AutoCloseable {
  static final String STACK = "fulfil-order";
  static final String TOPIC = "arn:aws:sns:us-east-1:000000000000:fulfil-order-alarms";
  static final String ALIAS = "arn:aws:lambda:us-east-1:000000000000:function:fulfil-order:live";
  /** What the stack was deployed with: its PartnerBaseUrl output and, until someone edits it, the function's variable. */
  static final String PARTNER_BASE_URL = "https://partner.example/";
  /** The secret the function reads the partner's key from, and the address subscribed to the topic. */
  static final String SECRET_ARN = "arn:aws:secretsmanager:us-east-1:000000000000:secret:partner-api-key-AbC123";
  static final String ALARM_EMAIL = "oncall@example.com";
  static final String STACK_ID = "arn:aws:cloudformation:us-east-1:000000000000:stack/" + STACK
      + "/6d2c9a60-ca5b-11f0-8de9-0242ac120002";
  static final String DETECTION_ID = "b78ac9b0-dec1-11e7-a451-503a3e7b9b43";

  /** One resource as drift detection found it: IN_SYNC, MODIFIED (with its differences) or DELETED. */
  record ResourceDrift(String logicalId, String type, String physicalId, String status, List<PropertyDifference> differences) {}

  /** @param type ADD, REMOVE or NOT_EQUAL */
  record PropertyDifference(String path, String expected, String actual, String type) {}

  private final HttpServer server;
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, String> outputs;
  private final TimingBudget budget;
  private final String queueArn;
  /** Every call served, as "Service Operation". */
  final List<String> served = new CopyOnWriteArrayList<>();
  final List<String> subscriptions = new CopyOnWriteArrayList<>(List.of(TOPIC + ":0f6c7d1e-oncall"));
  /** How drift detection ends: DETECTION_COMPLETE, or DETECTION_FAILED with {@link #detectionStatusReason}. */
  volatile String detection = "DETECTION_COMPLETE";
  volatile String detectionStatusReason;
  /** How many status answers say DETECTION_IN_PROGRESS before it ends. */
  volatile int answersInProgress;
  /** The stack's drift status as detection reports it; null: DRIFTED when a resource drifted, else IN_SYNC. */
  volatile String stackDriftStatus;
  /** What drift detection finds, each resource as DescribeStackResourceDrifts describes it (IN_SYNC ones too). */
  final List<ResourceDrift> resourceDrifts = new CopyOnWriteArrayList<>();
  /** The deployed template's Metadata section, as GetTemplateSummary returns it (JSON); null: it has none. */
  volatile String templateMetadata;
  /**
   * CloudWatch's five-minute datapoints, newest first, by "namespace metric statistic dimension=value"
   * (as GetMetricData names a metric); a metric with none answers an empty series, as CloudWatch does.
   */
  final Map<String, List<Double>> metrics = new java.util.concurrent.ConcurrentHashMap<>();
  /** Null: ScalingConfig left out, as Lambda leaves it out of a mapping without a cap. */
  volatile Integer mappingMaximumConcurrency = 10;
  /** Mappings someone made by hand on the stack's queue, besides the stack's own: UUID to the function they invoke. */
  final Map<String, String> handMadeMappings = new java.util.concurrent.ConcurrentHashMap<>();
  /** The function's log group, one line per event, as the function writes them. */
  final List<String> logLines = new CopyOnWriteArrayList<>();

  FakeControlPlane(Map<String, String> outputs, TimingBudget budget, String queueArn) throws IOException {
    this.outputs = new LinkedHashMap<>(outputs);
    this.outputs.put("FunctionAliasArn", ALIAS);
    this.outputs.put("AlarmTopicArn", TOPIC);
    this.outputs.put("PartnerBaseUrl", PARTNER_BASE_URL);
    this.budget = budget;
    this.queueArn = queueArn;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  /** The SDK's endpoint variables that send every control-plane client here. */
  Map<String, String> endpoints() {
    String url = "http://127.0.0.1:" + server.getAddress().getPort();
    return Map.of("AWS_ENDPOINT_URL_CLOUDFORMATION", url, "AWS_ENDPOINT_URL_LAMBDA", url,
        "AWS_ENDPOINT_URL_CLOUDWATCH", url, "AWS_ENDPOINT_URL_SNS", url, "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", url);
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      byte[] request = exchange.getRequestBody().readAllBytes();
      String body = new String(request, StandardCharsets.UTF_8);
      String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      if (CloudWatchRpcV2.operation(exchange).filter("GetMetricData"::equals).isPresent()) {
        served.add("GetMetricData");
        JsonNode query = CloudWatchRpcV2.request(request);
        CloudWatchRpcV2.answer(exchange, out -> getMetricData(query, out));
      } else if ("Logs_20140328.FilterLogEvents".equals(target)) {
        served.add("Logs FilterLogEvents");
        AwsQueryWire.send(exchange, 200, "application/x-amz-json-1.1", filterLogEvents(body));
      } else if (path.startsWith("/2015-03-31/functions/") && path.endsWith("/configuration")) {
        served.add("Lambda GetFunctionConfiguration");
        AwsQueryWire.send(exchange, 200, "application/json", functionConfiguration());
      } else if (path.startsWith("/2015-03-31/event-source-mappings/") && path.length() > "/2015-03-31/event-source-mappings/".length()) {
        served.add("Lambda GetEventSourceMapping");
        AwsQueryWire.send(exchange, 200, "application/json", json.writeValueAsString(mapping()));
      } else if (path.startsWith("/2015-03-31/event-source-mappings")) {
        served.add("Lambda ListEventSourceMappings");
        AwsQueryWire.send(exchange, 200, "application/json", eventSourceMappings(exchange.getRequestURI()));
      } else {
        Map<String, String> form = AwsQueryWire.form(body);
        String action = form.getOrDefault("Action", "");
        served.add(action);
        if (form.containsKey("StackName") && !STACK.equals(form.get("StackName"))) {
          AwsQueryWire.send(exchange, 400, "text/xml", error("ValidationError", "Stack with id " + form.get("StackName") + " does not exist"));
          return;
        }
        switch (action) {
          case "DescribeStacks" -> describeStacks(exchange);
          case "GetTemplateSummary" -> AwsQueryWire.send(exchange, 200, "text/xml", cloudFormation("GetTemplateSummary",
              (templateMetadata == null ? "" : "<Metadata>" + AwsQueryWire.xml(templateMetadata) + "</Metadata>")
                  + "<Parameters/><Version>2010-09-09</Version>"));
          case "DetectStackDrift" -> AwsQueryWire.send(exchange, 200, "text/xml", cloudFormation("DetectStackDrift",
              "<StackDriftDetectionId>" + DETECTION_ID + "</StackDriftDetectionId>"));
          case "DescribeStackDriftDetectionStatus" -> AwsQueryWire.send(exchange, 200, "text/xml", driftDetectionStatus());
          case "DescribeStackResourceDrifts" -> AwsQueryWire.send(exchange, 200, "text/xml", resourceDrifts(form));
          case "ListSubscriptionsByTopic" -> AwsQueryWire.send(exchange, 200, "text/xml", listSubscriptions());
          default -> AwsQueryWire.send(exchange, 400, "text/xml", error("InvalidAction", "not served by this fake: " + action));
        }
      }
    }
  }

  private void describeStacks(HttpExchange exchange) throws IOException {
    String members = outputs.entrySet().stream()
        .map(o -> "<member><OutputKey>" + o.getKey() + "</OutputKey><OutputValue>" + AwsQueryWire.xml(o.getValue()) + "</OutputValue></member>")
        .collect(Collectors.joining());
    AwsQueryWire.send(exchange, 200, "text/xml", cloudFormation("DescribeStacks", """
        <Stacks><member>
          <StackName>%s</StackName>
          <StackId>%s</StackId>
          <CreationTime>2026-11-20T09:00:00Z</CreationTime>
          <StackStatus>UPDATE_COMPLETE</StackStatus>
          <Outputs>%s</Outputs>
        </member></Stacks>""".formatted(STACK, STACK_ID, members)));
  }

  /** DescribeStackDriftDetectionStatus: in progress for {@link #answersInProgress} answers, then as set. */
  private String driftDetectionStatus() {
    boolean inProgress = answersInProgress > 0;
    answersInProgress--;
    long drifted = resourceDrifts.stream().filter(drift -> !drift.status().equals("IN_SYNC")).count();
    String status = stackDriftStatus != null ? stackDriftStatus : drifted > 0 ? "DRIFTED" : "IN_SYNC";
    return cloudFormation("DescribeStackDriftDetectionStatus", "<StackId>" + STACK_ID + "</StackId>"
        + "<StackDriftDetectionId>" + DETECTION_ID + "</StackDriftDetectionId>"
        + (inProgress ? "<DetectionStatus>DETECTION_IN_PROGRESS</DetectionStatus>"
            : "<StackDriftStatus>" + status + "</StackDriftStatus><DetectionStatus>" + detection + "</DetectionStatus>"
                + (detectionStatusReason == null ? "" : "<DetectionStatusReason>" + AwsQueryWire.xml(detectionStatusReason)
                    + "</DetectionStatusReason>")
                + "<DriftedStackResourceCount>" + drifted + "</DriftedStackResourceCount>")
        + "<Timestamp>2026-11-26T09:00:00Z</Timestamp>");
  }

  /** DescribeStackResourceDrifts, filtered by StackResourceDriftStatusFilters as CloudFormation filters them. */
  private String resourceDrifts(Map<String, String> form) {
    List<String> filters = form.entrySet().stream().filter(e -> e.getKey().startsWith("StackResourceDriftStatusFilters.member."))
        .map(Map.Entry::getValue).toList();
    String members = resourceDrifts.stream().filter(drift -> filters.isEmpty() || filters.contains(drift.status()))
        .map(drift -> "<member><StackId>" + STACK_ID + "</StackId><LogicalResourceId>" + drift.logicalId()
            + "</LogicalResourceId><PhysicalResourceId>" + AwsQueryWire.xml(drift.physicalId()) + "</PhysicalResourceId><ResourceType>"
            + drift.type() + "</ResourceType><StackResourceDriftStatus>" + drift.status() + "</StackResourceDriftStatus>"
            + "<PropertyDifferences>" + drift.differences().stream().map(d -> "<member><PropertyPath>" + AwsQueryWire.xml(d.path())
                + "</PropertyPath><ExpectedValue>" + AwsQueryWire.xml(d.expected()) + "</ExpectedValue><ActualValue>" + AwsQueryWire.xml(d.actual())
                + "</ActualValue><DifferenceType>" + d.type() + "</DifferenceType></member>").collect(Collectors.joining())
            + "</PropertyDifferences><Timestamp>2026-11-26T09:00:00Z</Timestamp></member>")
        .collect(Collectors.joining());
    return cloudFormation("DescribeStackResourceDrifts", "<StackResourceDrifts>" + members + "</StackResourceDrifts>");
  }

  private String functionConfiguration() throws IOException {
    ObjectNode configuration = json.createObjectNode()
        .put("FunctionName", "fulfil-order").put("FunctionArn", ALIAS).put("Runtime", "java21")
        .put("Timeout", budget.functionTimeout().toSeconds()).put("MemorySize", 512);
    configuration.putObject("TracingConfig").put("Mode", "PassThrough");
    ObjectNode variables = configuration.putObject("Environment").putObject("Variables");
    budget.functionEnvironment().forEach(variables::put);
    variables.put("FULFIL_LOG_LEVEL", "INFO");
    variables.put("PARTNER_BASE_URL", PARTNER_BASE_URL);
    variables.put("PARTNER_API_KEY_SECRET_ID", SECRET_ARN);
    return json.writeValueAsString(configuration);
  }

  private String eventSourceMappings(URI uri) throws IOException {
    Map<String, String> query = AwsQueryWire.form(uri.getRawQuery() == null ? "" : uri.getRawQuery());
    ObjectNode answer = json.createObjectNode();
    var mappings = answer.putArray("EventSourceMappings");
    if (queueArn.equals(query.get("EventSourceArn"))) {
      mappings.add(mapping());
      handMadeMappings.forEach((uuid, function) -> {
        if (query.get("FunctionName") == null || query.get("FunctionName").equals(function)) {
          mappings.addObject().put("UUID", uuid).put("EventSourceArn", queueArn).put("FunctionArn", function)
              .put("State", "Enabled").put("BatchSize", 10);
        }
      });
    }
    return json.writeValueAsString(answer);
  }

  /** The mapping as the stack creates it; MetricsConfig is left out when no metric is on, as Lambda leaves it out. */
  private ObjectNode mapping() {
    ObjectNode mapping = json.createObjectNode().put("UUID", "a1b2c3d4-5678-90ab-cdef-11111EXAMPLE")
        .put("BatchSize", budget.batchSize()).put("MaximumBatchingWindowInSeconds", budget.batchingWindow().toSeconds())
        .put("EventSourceArn", queueArn).put("FunctionArn", ALIAS).put("State", "Enabled");
    if (mappingMaximumConcurrency != null) {
      mapping.putObject("ScalingConfig").put("MaximumConcurrency", mappingMaximumConcurrency);
    }
    mapping.putArray("FunctionResponseTypes").add("ReportBatchItemFailures");
    mapping.putObject("MetricsConfig").putArray("Metrics").add("EventCount");
    return mapping;
  }

  /** A quoted filter pattern matches the lines that contain its term. */
  private String filterLogEvents(String body) throws IOException {
    var request = json.readTree(body);
    String term = request.path("filterPattern").asText().replace("\"", "");
    ObjectNode answer = json.createObjectNode();
    var events = answer.putArray("events");
    long timestamp = request.path("startTime").asLong();
    for (String line : logLines) {
      if (("/aws/lambda/fulfil-order").equals(request.path("logGroupName").asText()) && line.contains(term)) {
        events.addObject().put("logStreamName", "2026/11/25/[7]0c1d2e3f").put("timestamp", ++timestamp)
            .put("message", line).put("ingestionTime", timestamp).put("eventId", Long.toString(timestamp));
      }
    }
    answer.putArray("searchedLogStreams");
    return json.writeValueAsString(answer);
  }

  /**
   * GetMetricData's request ({@code MetricDataQueries[].MetricStat.Metric.Namespace} and so on) answered with each
   * query's datapoints, one every period back from the end time.
   */
  private void getMetricData(JsonNode request, CBORGenerator out) throws IOException {
    Instant end = CloudWatchRpcV2.timestamp(request.path("EndTime"));
    out.writeStartObject();
    out.writeArrayFieldStart("MetricDataResults");
    for (JsonNode query : request.path("MetricDataQueries")) {
      JsonNode stat = query.path("MetricStat");
      JsonNode metric = stat.path("Metric");
      JsonNode dimension = metric.path("Dimensions").path(0);
      String key = metric.path("Namespace").asText() + " " + metric.path("MetricName").asText() + " " + stat.path("Stat").asText()
          + " " + dimension.path("Name").asText() + "=" + dimension.path("Value").asText();
      long period = stat.path("Period").asLong();
      List<Double> values = metrics.getOrDefault(key, List.of());
      out.writeStartObject();
      out.writeStringField("Id", query.path("Id").asText());
      out.writeStringField("Label", metric.path("MetricName").asText());
      out.writeArrayFieldStart("Timestamps");
      for (int i = 0; i < values.size(); i++) {
        CloudWatchRpcV2.timestamp(out, end.minusSeconds(period * (i + 1)));
      }
      out.writeEndArray();
      out.writeArrayFieldStart("Values");
      for (double value : values) {
        out.writeNumber(value);
      }
      out.writeEndArray();
      out.writeStringField("StatusCode", "Complete");
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeArrayFieldStart("Messages");
    out.writeEndArray();
    out.writeEndObject();
  }

  private String listSubscriptions() {
    String members = subscriptions.stream().map(arn -> "<member><TopicArn>" + TOPIC + "</TopicArn><Protocol>email</Protocol>"
        + "<SubscriptionArn>" + arn + "</SubscriptionArn><Owner>000000000000</Owner><Endpoint>" + ALARM_EMAIL + "</Endpoint></member>")
        .collect(Collectors.joining());
    return queryAnswer("ListSubscriptionsByTopic", "http://sns.amazonaws.com/doc/2010-03-31/",
        "<Subscriptions>" + members + "</Subscriptions>");
  }

  private static String cloudFormation(String action, String result) {
    return queryAnswer(action, "http://cloudformation.amazonaws.com/doc/2010-05-15/", result);
  }

  /** The query protocol's envelope: {@code <ActionResponse><ActionResult>...</ActionResult><ResponseMetadata>}. */
  private static String queryAnswer(String action, String namespace, String result) {
    return "<" + action + "Response xmlns=\"" + namespace + "\"><" + action + "Result>" + result + "</" + action + "Result>"
        + "<ResponseMetadata><RequestId>b9275252-3774-11df-9540-example</RequestId></ResponseMetadata></" + action + "Response>";
  }

  private static String error(String code, String message) {
    return "<ErrorResponse><Error><Type>Sender</Type><Code>" + code + "</Code><Message>" + AwsQueryWire.xml(message)
        + "</Message></Error><RequestId>42d59b56-7407-4c4a-be0f-example</RequestId></ErrorResponse>";
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
