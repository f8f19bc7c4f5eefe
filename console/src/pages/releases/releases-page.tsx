import { Stack } from '@mantine/core';
import { PageHeader } from '../../ui/page-header';
import { ReleaseList } from './release-list';
import { RolloutList } from './rollout-list';
import { UploadForm } from './upload-form';

/** Player releases (docs/updates.md): upload, roll out to groups or a share, watch, roll back. */
export default function ReleasesPage() {
  return (
    <>
      <PageHeader
        title="Player releases"
        description="New versions of the kiosk app and of the web player: upload one, roll it out to screen groups or a share of the screens, watch it install, roll it back. Screens check every file's checksum before they use it."
      />
      <Stack gap="xl">
        <UploadForm />
        <RolloutList />
        <ReleaseList />
      </Stack>
    </>
  );
}
