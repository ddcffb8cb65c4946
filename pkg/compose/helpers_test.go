package compose

// lintOnlyStory has an error kitsoki validate reports but the existing
// engine's loader accepts: an on_error naming no state.
const lintOnlyStory = `app: {id: lint}
root: start
states:
  start:
    terminal: true
    on_enter:
      - invoke: host.run
        with: {cmd: "true"}
        on_error: nowhere
`
