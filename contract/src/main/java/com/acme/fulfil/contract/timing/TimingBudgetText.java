package com.acme.fulfil.contract.timing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A timing budget as one line of text and back, exactly: how {@code ./run-local --serve} tells
 * {@code ./fulfil-ops} the budget its local stack was created from. Its durations are scaled to the
 * nanosecond, which no setting (whole seconds, whole days) carries, and a budget read back from
 * anything less may differ from the queues it made or be refused by the rules. Each of the record's
 * components is {@code name=value} (a nested record's {@code name.part=value}), joined by commas, so the
 * line needs no quoting in a shell.
 */
public final class TimingBudgetText {
  private TimingBudgetText() {}

  public static String write(TimingBudget budget) {
    Map<String, String> parts = new LinkedHashMap<>();
    flatten("", budget, parts);
    return parts.entrySet().stream().map(part -> part.getKey() + "=" + part.getValue()).collect(Collectors.joining(","));
  }

  /** The budget {@link #write} wrote; the rules check it again, as any budget's. */
  public static TimingBudget read(String text) {
    Map<String, String> parts = new HashMap<>();
    for (String part : text.split(",")) {
      String[] nameAndValue = part.split("=", 2);
      if (nameAndValue.length != 2) {
        throw new IllegalArgumentException("not a timing budget: '" + part + "' is not name=value");
      }
      parts.put(nameAndValue[0].strip(), nameAndValue[1].strip());
    }
    return build(TimingBudget.class, "", parts);
  }

  private static void flatten(String prefix, Record record, Map<String, String> parts) {
    for (RecordComponent component : record.getClass().getRecordComponents()) {
      Object value;
      try {
        value = component.getAccessor().invoke(record);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
      if (value instanceof Record nested) {
        flatten(prefix + component.getName() + ".", nested, parts);
      } else {
        parts.put(prefix + component.getName(), value.toString());
      }
    }
  }

  private static <R extends Record> R build(Class<R> type, String prefix, Map<String, String> parts) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] values = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      String name = prefix + components[i].getName();
      values[i] = types[i].isRecord() ? build(types[i].asSubclass(Record.class), name + ".", parts) : value(types[i], name, parts);
    }
    try {
      return type.getDeclaredConstructor(types).newInstance(values);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException refused ? refused : new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Object value(Class<?> type, String name, Map<String, String> parts) {
    String text = parts.get(name);
    if (text == null) {
      throw new IllegalArgumentException("not a timing budget: it has no " + name);
    }
    try {
      return type == Duration.class ? Duration.parse(text) : Integer.valueOf(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a timing budget: " + name + " is '" + text + "'", e);
    }
  }
}
