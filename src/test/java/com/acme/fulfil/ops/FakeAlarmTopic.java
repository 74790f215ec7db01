package com.acme.fulfil.ops;

import com.acme.fulfil.contract.alarms.AlarmNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The stack's alarms and their SNS topic, answering as CloudWatch ({@link CloudWatchRpcV2}) and SNS (query
 * protocol, XML) document it: DescribeAlarms, SetAlarmState, DescribeAlarmHistory and ListSubscriptionsByTopic. A change of state by
 * SetAlarmState runs the alarm's actions for its new state, as a real change does ("When the updated state differs
 * from the previous value, the action configured for the appropriate state is invoked", SetAlarmState in the
 * CloudWatch API reference). Each SNS action is allowed or refused by the topic's policy, evaluated for the
 * principal CloudWatch publishes as (the service cloudwatch.amazonaws.com, over TLS, with the alarm as
 * aws:SourceArn and its account as aws:SourceAccount): an explicit Deny refuses, an Allow allows, and nothing
 * allowing refuses, as IAM evaluates a resource policy. CloudWatch records the outcome in the alarm's history in
 * the words AWS's knowledge centre quotes (https://repost.aws/knowledge-center/cloudwatch-receive-sns-for-alarm-trigger):
 * "Failed to execute action arn:aws:sns:...:TOPIC_NAME. Received error: "Resource:
 * arn:aws:cloudwatch:...:alarm:ALARM_NAME is not authorized to perform: SNS:Publish on resource: ..."".
 */
final class FakeAlarmTopic implements AutoCloseable {
  static final String ACCOUNT = "000000000000";
  static final String REGION = "us-east-1";
  static final String TOPIC = FakeControlPlane.TOPIC;
  /** The policy the stack gives the topic today: the TLS Deny alone, as CDK's enforceSsl writes it. */
  static final String TLS_DENY_ONLY = """
      {"Version":"2012-10-17","Statement":[
        {"Sid":"AllowPublishThroughSSLOnly","Effect":"Deny","Principal":"*","Action":"sns:Publish","Resource":"%s",
         "Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}""".formatted(TOPIC);
  /** The TLS Deny and an Allow for CloudWatch, scoped to this account's alarms. */
  static final String CLOUDWATCH_ALLOWED = """
      {"Version":"2012-10-17","Statement":[
        {"Sid":"AllowPublishThroughSSLOnly","Effect":"Deny","Principal":"*","Action":"sns:Publish","Resource":"%s",
         "Condition":{"Bool":{"aws:SecureTransport":"false"}}},
        {"Sid":"AllowCloudWatchAlarms","Effect":"Allow","Principal":{"Service":"cloudwatch.amazonaws.com"},
         "Action":"sns:Publish","Resource":"%s",
         "Condition":{"ArnLike":{"aws:SourceArn":"arn:aws:cloudwatch:%s:%s:alarm:*"},
                      "StringEquals":{"aws:SourceAccount":"%s"}}}]}""".formatted(TOPIC, TOPIC, REGION, ACCOUNT, ACCOUNT);

  /** One alarm as DescribeAlarms describes it. */
  static final class Alarm {
    volatile String state = "OK";
    volatile String reason = "Threshold Crossed: no datapoints were received";
    volatile Instant updated = Instant.parse("2026-11-20T09:00:00Z");
    final List<String> alarmActions = new CopyOnWriteArrayList<>(List.of(TOPIC));
    final List<String> okActions = new CopyOnWriteArrayList<>(List.of(TOPIC));
  }

  /** One item of an alarm's history; a state update's data holds the new state and its reason, as CloudWatch's does. */
  record HistoryItem(String alarm, Instant timestamp, String type, String summary, String data) {}

  /** One subscription: its ARN, or {@code PendingConfirmation} until its endpoint confirms it. */
  record Subscription(String protocol, String endpoint, String arn) {}

  private final HttpServer server;
  private final ObjectMapper json = new ObjectMapper();
  final Map<String, Alarm> alarms = new ConcurrentHashMap<>();
  final List<HistoryItem> history = new CopyOnWriteArrayList<>();
  final List<Subscription> subscriptions = new CopyOnWriteArrayList<>();
  /** Every SetAlarmState, as "ALARM_NAME STATE", in order. */
  final List<String> statesSet = new CopyOnWriteArrayList<>();
  /** What SNS accepted from CloudWatch for the topic: one line per page. */
  final List<String> published = new CopyOnWriteArrayList<>();
  volatile String topicPolicy = TLS_DENY_ONLY;
  /** False: CloudWatch records no action at all (as long as a test needs it to be late). */
  volatile boolean recordsActions = true;
  /** True: SetAlarmState back to OK fails, as it does for a caller that may set ALARM only. */
  volatile boolean refusesSettingBack;
  /** True: the alarm's next evaluation sets it back to its actual state at once, before the caller can. */
  volatile boolean evaluatesAtOnce;

  FakeAlarmTopic() throws IOException {
    AlarmNames.ALL.forEach(name -> alarms.put(name, new Alarm()));
    subscriptions.add(new Subscription("email", FakeControlPlane.ALARM_EMAIL, TOPIC + ":0f6c7d1e-oncall"));
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  /** The SDK's endpoint variables that send the CloudWatch and SNS clients here. */
  Map<String, String> endpoints() {
    String url = "http://127.0.0.1:" + server.getAddress().getPort();
    return Map.of("AWS_ENDPOINT_URL_CLOUDWATCH", url, "AWS_ENDPOINT_URL_SNS", url);
  }

  static String alarmArn(String name) {
    return "arn:aws:cloudwatch:" + REGION + ":" + ACCOUNT + ":alarm:" + name;
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      Optional<String> operation = CloudWatchRpcV2.operation(exchange);
      if (operation.isPresent()) {
        JsonNode request = CloudWatchRpcV2.request(body);
        switch (operation.get()) {
          case "DescribeAlarms" -> CloudWatchRpcV2.answer(exchange, out -> describeAlarms(request, out));
          case "SetAlarmState" -> setAlarmState(exchange, request);
          case "DescribeAlarmHistory" -> CloudWatchRpcV2.answer(exchange, out -> describeAlarmHistory(request, out));
          default -> CloudWatchRpcV2.error(exchange, 400, "InvalidAction", "not served by this fake: " + operation.get());
        }
        return;
      }
      Map<String, String> form = AwsQueryWire.form(new String(body, StandardCharsets.UTF_8));
      String action = form.getOrDefault("Action", "");
      switch (action) {
        case "ListSubscriptionsByTopic" -> AwsQueryWire.send(exchange, 200, "text/xml", listSubscriptions());
        default -> AwsQueryWire.send(exchange, 400, "text/xml", error("InvalidAction", "not served by this fake: " + action));
      }
    }
  }

  private void describeAlarms(JsonNode request, CBORGenerator out) throws IOException {
    List<String> names = values(request.path("AlarmNames"));
    out.writeStartObject();
    out.writeArrayFieldStart("MetricAlarms");
    for (Map.Entry<String, Alarm> entry : alarms.entrySet().stream()
        .filter(alarm -> names.isEmpty() || names.contains(alarm.getKey())).sorted(Map.Entry.comparingByKey()).toList()) {
      Alarm alarm = entry.getValue();
      out.writeStartObject();
      out.writeStringField("AlarmName", entry.getKey());
      out.writeStringField("AlarmArn", alarmArn(entry.getKey()));
      out.writeBooleanField("ActionsEnabled", true);
      CloudWatchRpcV2.strings(out, "AlarmActions", alarm.alarmActions);
      CloudWatchRpcV2.strings(out, "OKActions", alarm.okActions);
      CloudWatchRpcV2.strings(out, "InsufficientDataActions", List.of());
      out.writeStringField("StateValue", alarm.state);
      out.writeStringField("StateReason", alarm.reason);
      CloudWatchRpcV2.timestamp(out, "StateUpdatedTimestamp", alarm.updated);
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeArrayFieldStart("CompositeAlarms");
    out.writeEndArray();
    out.writeEndObject();
  }

  private void setAlarmState(HttpExchange exchange, JsonNode request) throws IOException {
    String name = request.path("AlarmName").asText();
    String state = request.path("StateValue").asText();
    Alarm alarm = alarms.get(name);
    if (alarm == null) {
      CloudWatchRpcV2.error(exchange, 404, "ResourceNotFound", "Alarm " + name + " not found");
      return;
    }
    if (refusesSettingBack && !"ALARM".equals(state)) {
      CloudWatchRpcV2.error(exchange, 403, "AccessDenied", "User is not authorized to perform: cloudwatch:SetAlarmState");
      return;
    }
    statesSet.add(name + " " + state);
    String actual = alarm.state;
    change(name, alarm, state, request.path("StateReason").asText());
    if (evaluatesAtOnce) {
      change(name, alarm, actual, "Threshold Crossed: the alarm's evaluation");
    }
    CloudWatchRpcV2.answer(exchange, out -> {
      out.writeStartObject();
      out.writeEndObject();
    });
  }

  /** A change of state, when it is one: its history item, and the actions for the new state. */
  private void change(String name, Alarm alarm, String state, String reason) {
    if (state.equals(alarm.state)) {
      return;
    }
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    ObjectNode data = json.createObjectNode().put("version", "1.0");
    data.putObject("oldState").put("stateValue", alarm.state).put("stateReason", alarm.reason);
    data.putObject("newState").put("stateValue", state).put("stateReason", reason);
    history.add(new HistoryItem(name, now, "StateUpdate", "Alarm updated from " + alarm.state + " to " + state, data.toString()));
    alarm.state = state;
    alarm.reason = reason;
    alarm.updated = now;
    if (recordsActions) {
      ("ALARM".equals(state) ? alarm.alarmActions : "OK".equals(state) ? alarm.okActions : List.<String>of())
          .forEach(topic -> history.add(new HistoryItem(name, now, "Action", publish(name, topic), "{}")));
    }
  }

  /** CloudWatch's publish to the topic, as the topic's policy lets it, in the words its history records. */
  private String publish(String alarm, String topic) {
    Map<String, String> context = Map.of("aws:SecureTransport", "true", "aws:SourceArn", alarmArn(alarm),
        "aws:SourceAccount", ACCOUNT);
    if (!allows(topic, context)) {
      return "Failed to execute action " + topic + ". Received error: \"Resource: " + alarmArn(alarm)
          + " is not authorized to perform: SNS:Publish on resource: " + topic + "\"";
    }
    subscriptions.stream().filter(s -> !s.arn().equals(PageDrill.PENDING_CONFIRMATION))
        .forEach(s -> published.add(alarm + " to " + s.endpoint()));
    return "Successfully executed action " + topic;
  }

  /** The topic policy for sns:Publish by cloudwatch.amazonaws.com: an explicit Deny wins, then an Allow, else refused. */
  private boolean allows(String topic, Map<String, String> context) {
    JsonNode policy;
    try {
      policy = json.readTree(topicPolicy);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<JsonNode> applying = new ArrayList<>();
    policy.path("Statement").forEach(statement -> {
      if (principal(statement.path("Principal")) && matchesAny(statement.path("Action"), "sns:Publish", true)
          && matchesAny(statement.path("Resource"), topic, false) && conditions(statement.path("Condition"), context)) {
        applying.add(statement);
      }
    });
    return applying.stream().noneMatch(s -> "Deny".equals(s.path("Effect").asText()))
        && applying.stream().anyMatch(s -> "Allow".equals(s.path("Effect").asText()));
  }

  private static boolean principal(JsonNode principal) {
    if (principal.isTextual()) {
      return "*".equals(principal.asText());
    }
    return matchesAny(principal.path("Service"), "cloudwatch.amazonaws.com", false)
        || "*".equals(principal.path("AWS").asText());
  }

  /** Every operator of a condition block must hold; an operator this fake does not play is an error, never a pass. */
  private static boolean conditions(JsonNode condition, Map<String, String> context) {
    List<Boolean> results = new ArrayList<>();
    condition.properties().forEach(operator -> operator.getValue().properties().forEach(key -> {
      String actual = context.get(key.getKey());
      JsonNode expected = key.getValue();
      results.add(actual != null && switch (operator.getKey()) {
        case "Bool", "StringEquals", "ArnEquals" -> values(expected).stream().anyMatch(actual::equals);
        case "ArnLike", "StringLike" -> values(expected).stream().anyMatch(pattern -> glob(pattern, false).matcher(actual).matches());
        default -> throw new IllegalStateException("this fake does not evaluate the condition operator " + operator.getKey());
      });
    }));
    return results.stream().allMatch(Boolean::booleanValue);
  }

  private static boolean matchesAny(JsonNode patterns, String value, boolean ignoreCase) {
    return values(patterns).stream().anyMatch(pattern -> glob(pattern, ignoreCase).matcher(value).matches());
  }

  private static List<String> values(JsonNode node) {
    return node.isArray() ? IntStream.range(0, node.size()).mapToObj(i -> node.get(i).asText()).toList()
        : node.isMissingNode() ? List.of() : List.of(node.asText());
  }

  private static Pattern glob(String pattern, boolean ignoreCase) {
    String regex = Arrays.stream(pattern.split("((?<=[*?])|(?=[*?]))"))
        .map(part -> part.equals("*") ? ".*" : part.equals("?") ? "." : Pattern.quote(part)).collect(Collectors.joining());
    return Pattern.compile(regex, ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
  }

  private void describeAlarmHistory(JsonNode request, CBORGenerator out) throws IOException {
    String name = request.path("AlarmName").asText();
    Instant start = request.has("StartDate") ? CloudWatchRpcV2.timestamp(request.path("StartDate")) : Instant.EPOCH;
    String type = request.path("HistoryItemType").asText(null);
    out.writeStartObject();
    out.writeArrayFieldStart("AlarmHistoryItems");
    for (HistoryItem item : history.stream().filter(item -> item.alarm().equals(name))
        .filter(item -> type == null || item.type().equals(type)).filter(item -> !item.timestamp().isBefore(start)).toList()) {
      out.writeStartObject();
      out.writeStringField("AlarmName", item.alarm());
      out.writeStringField("AlarmType", "MetricAlarm");
      CloudWatchRpcV2.timestamp(out, "Timestamp", item.timestamp());
      out.writeStringField("HistoryItemType", item.type());
      out.writeStringField("HistorySummary", item.summary());
      out.writeStringField("HistoryData", item.data());
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeEndObject();
  }

  private String listSubscriptions() {
    String members = subscriptions.stream().map(s -> "<member><TopicArn>" + TOPIC + "</TopicArn><Protocol>" + s.protocol()
        + "</Protocol><SubscriptionArn>" + s.arn() + "</SubscriptionArn><Owner>" + ACCOUNT + "</Owner><Endpoint>"
        + AwsQueryWire.xml(s.endpoint()) + "</Endpoint></member>").collect(Collectors.joining());
    return "<ListSubscriptionsByTopicResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\"><ListSubscriptionsByTopicResult>"
        + "<Subscriptions>" + members + "</Subscriptions></ListSubscriptionsByTopicResult><ResponseMetadata><RequestId>"
        + "b9275252-3774-11df-9540-example</RequestId></ResponseMetadata></ListSubscriptionsByTopicResponse>";
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
