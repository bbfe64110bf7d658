# app/man.mk - `make man` and `make completion`: the manual pages
# (build/man/*.1, *.5) and the bash completion (build/completion/atomsim),
# written by the hidden `atomsim help-man` (app/man_page.c) from the code's
# own tables and each command's --help, so they cannot drift from the code
# (tests/man_pages.sh, tests/bash_completion.sh).  Included by the Makefile.
# The pages' date is the last commit's (SOURCE_DATE_EPOCH when set), so two
# builds of one commit give the same bytes.

MAN_DIR := $(B)/man
MAN_EPOCH = $${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || date +%s)}

.PHONY: man completion
man: $(B)/atomsim $(B)/vkbench
	@rm -rf $(MAN_DIR).tmp && mkdir -p $(MAN_DIR).tmp
	@export SOURCE_DATE_EPOCH=$(MAN_EPOCH); \
	for p in $$($(B)/atomsim help-man --list); do \
	  $(B)/atomsim help-man $$p >$(MAN_DIR).tmp/$$p || exit 1; \
	done; \
	$(B)/vkbench --help >$(MAN_DIR).tmp/vkbench.help && \
	$(B)/atomsim help-man vkbench $(MAN_DIR).tmp/vkbench.help >$(MAN_DIR).tmp/vkbench.1 && \
	rm $(MAN_DIR).tmp/vkbench.help
	@rm -rf $(MAN_DIR) && mv $(MAN_DIR).tmp $(MAN_DIR)
	@echo "manual pages in $(MAN_DIR)/ (read one with: man -l $(MAN_DIR)/atomsim.1)"

completion: $(B)/atomsim
	@mkdir -p $(B)/completion
	@$(B)/atomsim help-man completion >$(B)/completion/atomsim.tmp && \
	  mv $(B)/completion/atomsim.tmp $(B)/completion/atomsim
	@echo "bash completion in $(B)/completion/atomsim (source it, or copy it to ~/.local/share/bash-completion/completions/)"
