package org.zstack.aio.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.zstack.sdk.AbstractAction;
import org.zstack.sdk.ApiErrorException;
import org.zstack.sdk.LogInByAccountAction;
import org.zstack.sdk.LogOutAction;
import org.zstack.sdk.RestInfo;
import org.zstack.sdk.ZSClient;
import org.zstack.sdk.ZSClientException;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/aio-cli}: zstack-cli's style on plugin-aio's SDK. {@code aio-cli <Action> key=value …} runs the SDK's
 * {@code <Action>Action} (found, not listed: {@link ActionCatalog}) and prints the server's JSON; an error prints the
 * API's error body and exits 1. {@code LogInByAccount} keeps the session ({@link SessionStore}) for the next commands;
 * {@code LogOut} ends it. {@code aio-cli help [Action]} and {@code aio-cli generate-completion} (bash/zsh) come from
 * picocli. The server is {@code AIO_SERVER_URL} (default http://localhost:8080).
 */
public final class AioCli {

    static final int ERROR = 1;
    static final int USAGE = 2;

    private final ZSClient client;
    private final SessionStore sessions;
    private final PrintWriter out;
    private final PrintWriter err;
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Map<String, Class<? extends AbstractAction<?>>> actions = ActionCatalog.discover();

    AioCli(ZSClient client, SessionStore sessions, PrintWriter out, PrintWriter err) {
        this.client = client;
        this.sessions = sessions;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        String url = System.getenv().getOrDefault("AIO_SERVER_URL", "http://localhost:8080");
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(new AioCli(new ZSClient(url), SessionStore.fromEnvironment(), out, err).run(args));
    }

    int run(String... args) {
        CommandLine cli = commandLine();
        cli.setOut(out);
        cli.setErr(err);
        return cli.execute(args);
    }

    CommandLine commandLine() {
        CommandSpec root = CommandSpec.create().name("aio-cli").mixinStandardHelpOptions(true).version("aio-cli 1.0.0");
        root.usageMessage().description("plugin-aio's command line: one command per action of its Java SDK, "
                + "parameters as key=value (lists comma-separated, a query's conditions as repeated q=). "
                + "Log in first: aio-cli LogInByAccount accountName=admin password=… (the session is kept in ~/.aio-cli).");
        CommandLine cli = new CommandLine(root);
        cli.addSubcommand("help", new CommandLine.HelpCommand());
        cli.addSubcommand("generate-completion", new AutoComplete.GenerateCompletion());
        for (Map.Entry<String, Class<? extends AbstractAction<?>>> e : actions.entrySet()) {
            cli.addSubcommand(e.getKey(), new CommandLine(actionSpec(e.getKey(), e.getValue())));
        }
        cli.setExecutionStrategy(this::execute);
        return cli;
    }

    private static CommandSpec actionSpec(String name, Class<? extends AbstractAction<?>> type) {
        CommandSpec spec = CommandSpec.create().name(name).mixinStandardHelpOptions(true);
        RestInfo rest = newAction(type).getRestInfo();
        Map<String, ActionParams.Spec> params = ActionParams.of(type);
        spec.usageMessage().description(type.getSimpleName() + ": " + rest.httpMethod() + " " + rest.path());
        List<String> lines = new ArrayList<>();
        params.values().forEach(p -> lines.add(p.describe()));
        spec.addPositional(PositionalParamSpec.builder().paramLabel("key=value").arity("0..*")
                .type(List.class).auxiliaryTypes(String.class)
                .completionCandidates(params.keySet().stream().map(k -> k + "=").toList())
                .description(lines.isEmpty() ? new String[]{"(no parameters)"} : lines.toArray(String[]::new)).build());
        return spec;
    }

    private int execute(ParseResult parsed) {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) return help;
        if (!parsed.hasSubcommand()) {
            parsed.commandSpec().commandLine().usage(out);
            return USAGE;
        }
        ParseResult sub = parsed.subcommand();
        Class<? extends AbstractAction<?>> type = actions.get(sub.commandSpec().name());
        if (type == null) return new CommandLine.RunLast().execute(parsed); // help, generate-completion
        List<String> words = sub.matchedPositionals().isEmpty() ? List.of() : sub.matchedPositionals().get(0).getValue();
        return call(newAction(type), words);
    }

    int call(AbstractAction<?> action, List<String> words) {
        try {
            ActionParams.apply(action, words);
            if (action instanceof LogOutAction logout && logout.sessionUuid == null) logout.sessionUuid = sessions.read();
            if (!(action instanceof LogInByAccountAction)) action.sessionId = sessions.read();
            JsonNode answer = client.callForJson(action);
            if (action instanceof LogInByAccountAction) sessions.write(answer.path("inventory").path("uuid").asText());
            if (action instanceof LogOutAction) sessions.clear();
            out.println(json.writeValueAsString(answer));
            return 0;
        } catch (ApiErrorException e) {
            ObjectNode body = json.createObjectNode();
            ObjectNode error = body.putObject("error");
            error.put("code", e.getCode());
            error.put("description", e.getDescription());
            error.put("details", e.getDetails());
            out.println(body.toPrettyString());
            return ERROR;
        } catch (IllegalArgumentException e) { // a bad key=value, a missing required parameter or session: nothing sent
            err.println("aio-cli: " + e.getMessage());
            return USAGE;
        } catch (ZSClientException e) {
            err.println("aio-cli: " + e.getMessage());
            return ERROR;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static AbstractAction<?> newAction(Class<?> type) {
        try {
            return (AbstractAction<?>) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type + " has no public no-argument constructor", e);
        }
    }
}
