// The phase-plane tabs' own study files and their unsaved changes. A phase plane's view (axes,
// window, slider parameter and range, trajectories' starts) is a study of its own, written apart from
// the document's study: it counts as modified while the view's study text differs from the text last
// opened or saved (a view made from the edited study has none: any change of it is modified). The
// window's "*" and the question before closing take these in with the document's own changes.
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <vector>

class QWidget;

namespace bif::ui {

class PhasePlanePanel;

class PhasePlaneDocuments : public QObject {
    Q_OBJECT
  public:
    explicit PhasePlaneDocuments(QWidget& dialog_parent, QObject* parent = nullptr);

    // Follows `panel` from now on: its view as it is now is the one in `path` (empty: no file yet).
    void track(PhasePlanePanel* panel, const QString& path);
    // Follows `panel`, whose file `path` holds the view `saved_text` (phase_plane_study_text's; empty
    // where the file could not be read): the view is modified where it differs (a recovered one).
    void track(PhasePlanePanel* panel, const QString& path, const QString& saved_text);

    bool modified() const;
    bool isModified(const PhasePlanePanel* panel) const;
    // The file a panel was last opened from or saved to; empty when none or when not tracked.
    QString path(const PhasePlanePanel* panel) const;
    // What the question before closing names: each modified view's file name, or its title where it
    // has no file.
    QStringList modifiedNames() const;

    // Writes the view to its file; Save as where it has none or the file cannot be written. False when
    // the user cancelled or writing failed (a message box said why).
    bool save(PhasePlanePanel& panel);
    bool saveAs(PhasePlanePanel& panel);
    bool saveTo(PhasePlanePanel& panel, const QString& path);
    // Before the view's tab closes: Save / Discard / Cancel when it is modified; false to keep the tab.
    bool maybeSave(PhasePlanePanel& panel);
    // Saves every modified view; false at the first that is not saved.
    bool saveModified();
    // No longer follows the view (its tab closed): its changes go with it.
    void forget(QObject* panel);

  signals:
    void modifiedChanged(); // some view became modified or clean, or a modified one closed
    void fileUsed(const QString& path);

  private:
    struct Entry {
        QPointer<PhasePlanePanel> panel;
        const QObject* key = nullptr; // the panel, still known while it is being destroyed
        QString path;
        QString saved_text;
        bool modified = false;
    };
    Entry* entryOf(const PhasePlanePanel* panel);
    const Entry* entryOf(const PhasePlanePanel* panel) const;
    void update(Entry& entry);

    QWidget& dialog_parent_;
    std::vector<Entry> entries_;
};

} // namespace bif::ui
