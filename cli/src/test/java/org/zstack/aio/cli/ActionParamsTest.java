package org.zstack.aio.cli;

import org.junit.jupiter.api.Test;
import org.zstack.sdk.QueryVolumeAction;
import org.zstack.sdk.UpdateResourceConfigAction;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActionParamsTest {

    @Test
    void everyConcreteSdkActionIsACommandFoundNotListed() {
        var catalog = ActionCatalog.discover();
        assertThat(catalog).containsKeys("LogInByAccount", "LogOut", "QueryVolume", "QueryAudit", "UpdateGlobalConfig",
                "UpdateResourceConfig", "StartVmInstance", "AddKVMHost");
        assertThat(catalog).doesNotContainKeys("Abstract", "Query"); // the abstract bases are not commands
        catalog.forEach((name, type) -> assertThat(type.getSimpleName()).isEqualTo(name + "Action"));
    }

    @Test
    void keyValueWordsSetTypedFieldsAndRepeatedConditions() {
        QueryVolumeAction q = new QueryVolumeAction();
        ActionParams.apply(q, List.of("q=name=a", "q=size>1", "limit=5", "replyWithCount=true", "fields=uuid,name"));
        assertThat(q.conditions).containsExactly("name=a", "size>1");
        assertThat(q.limit).isEqualTo(5);
        assertThat(q.replyWithCount).isTrue();
        assertThat(q.fields).containsExactly("uuid", "name");
        UpdateResourceConfigAction u = new UpdateResourceConfigAction();
        ActionParams.apply(u, List.of("value=a=b")); // only the first '=' splits
        assertThat(u.value).isEqualTo("a=b");
    }

    @Test
    void aBadWordSaysWhatIsWrong() {
        assertThatThrownBy(() -> ActionParams.apply(new QueryVolumeAction(), List.of("limit=ten")))
                .hasMessageContaining("'ten' is not a valid integer for limit");
        assertThatThrownBy(() -> ActionParams.apply(new QueryVolumeAction(), List.of("count=yes")))
                .hasMessageContaining("not a valid boolean");
        assertThatThrownBy(() -> ActionParams.apply(new QueryVolumeAction(), List.of("novalue")))
                .hasMessageContaining("is not key=value");
        assertThatThrownBy(() -> ActionParams.apply(new QueryVolumeAction(), List.of("nosuch=1")))
                .hasMessageContaining("QueryVolume has no parameter 'nosuch'").hasMessageContaining("limit");
    }
}
